internal import CLinux
import Glibc

/// A connectionless Unix datagram sender to one address (`NOTIFY_SOCKET`'s shape): each
/// ``send(_:)`` is one datagram, best effort.
package struct UnixDatagramSender: Sendable {
  private let address: UnixSocketAddress
  private let socket: FileDescriptor

  /// A sender to `path` (`@name` for an abstract socket); `nil` when the path is unusable or
  /// no socket can be made.
  package init?(path: String) {
    guard let address = try? UnixSocketAddress(path: path) else { return nil }
    let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    let raw = Glibc.socket(AF_UNIX, type, 0)
    guard raw >= 0 else { return nil }
    self.address = address
    socket = FileDescriptor(rawValue: raw)
  }

  /// Sends `message` as one datagram; true when it went out.
  @discardableResult
  package func send(_ message: String) -> Bool {
    var message = message
    return message.withUTF8 { bytes in
      address.withSocketAddress { pointer, length in
        let sent = valueOrErrno(retryOnInterrupt: true) {
          sendto(
            socket.rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), pointer, length)
        }
        if case .success = sent { return true }
        return false
      }
    }
  }
}

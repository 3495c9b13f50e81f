internal import CLinux
import Glibc

/// A Unix-domain socket address (`sockaddr_un`) built from a path.
///
/// A path starting with `@` names an abstract socket (a leading NUL byte, no file), as
/// systemd writes `NOTIFY_SOCKET` for some services.
package struct UnixSocketAddress: Sendable {
  private var storage = sockaddr_un()
  private var length: socklen_t

  /// Fails with ENAMETOOLONG when the path does not fit `sun_path` (108 bytes with its NUL).
  package init(path: String) throws(Errno) {
    storage.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: storage.sun_path)
    let abstract = bytes.first == UInt8(ascii: "@")
    // A filesystem path needs room for its terminating NUL; an abstract name does not.
    guard !bytes.isEmpty, bytes.count + (abstract ? 0 : 1) <= capacity else {
      throw .nameTooLong
    }
    withUnsafeMutableBytes(of: &storage.sun_path) { raw in
      raw.copyBytes(from: bytes)
      if abstract { raw[0] = 0 }
    }
    let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
    length = socklen_t(pathOffset + bytes.count + (abstract ? 0 : 1))
  }

  /// Calls `body` with the address as a `sockaddr` pointer and its length.
  func withSocketAddress<R>(
    _ body: (UnsafePointer<sockaddr>, socklen_t) -> R
  ) -> R {
    withUnsafePointer(to: storage) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
    }
  }
}

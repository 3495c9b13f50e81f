internal import CLinux
import Glibc

/// The listening socket systemd hands over (`LISTEN_FDS`/`LISTEN_PID`, first descriptor 3).
///
/// Validated as `sd_is_socket(fd, AF_UNSPEC, SOCK_STREAM, 1)` would: a socket, of stream type,
/// listening. The variables are unset once read so that nothing started later inherits them.
package enum SocketActivation {
  /// The first descriptor systemd passes (`SD_LISTEN_FDS_START`).
  package static let firstDescriptor = FileDescriptor(rawValue: 3)

  /// `LISTEN_FDS` said there was a socket, but descriptor 3 is not a listening stream socket.
  package struct ActivationError: Error, CustomStringConvertible {
    package var description: String
  }

  /// The passed listener (made non-blocking and close-on-exec), or `nil` when this process was
  /// not socket-activated (no `LISTEN_FDS`, or `LISTEN_PID` names another process).
  package static func takeListener() throws(ActivationError) -> FileDescriptor? {
    defer {
      unsetenv("LISTEN_PID")
      unsetenv("LISTEN_FDS")
      unsetenv("LISTEN_FDNAMES")
    }
    guard let pidText = environment("LISTEN_PID"), let countText = environment("LISTEN_FDS"),
      let pid = Int32(pidText), pid == getpid(), let count = Int(countText), count >= 1
    else { return nil }
    let listener = firstDescriptor
    var status = stat()
    guard fstat(listener.rawValue, &status) == 0, (status.st_mode & S_IFMT) == S_IFSOCK else {
      throw ActivationError(description: "LISTEN_FDS: descriptor 3 is not a socket")
    }
    guard socketOption(listener, SO_TYPE) == Int32(SOCK_STREAM.rawValue) else {
      throw ActivationError(description: "LISTEN_FDS: descriptor 3 is not a stream socket")
    }
    guard socketOption(listener, SO_ACCEPTCONN) == 1 else {
      throw ActivationError(description: "LISTEN_FDS: descriptor 3 is not listening")
    }
    do {
      try listener.setCloseOnExec()
      try listener.setNonBlocking()
    } catch {
      throw ActivationError(description: "LISTEN_FDS: descriptor 3: \(error)")
    }
    return listener
  }

  /// An integer `SOL_SOCKET` option, or -1.
  private static func socketOption(_ socket: FileDescriptor, _ option: CInt) -> CInt {
    var value: CInt = -1
    var length = socklen_t(MemoryLayout<CInt>.size)
    guard getsockopt(socket.rawValue, SOL_SOCKET, option, &value, &length) == 0 else { return -1 }
    return value
  }
}

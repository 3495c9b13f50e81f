import Glibc

extension FileDescriptor {
  /// What this socket holds that its peer has not read yet, in bytes as the kernel counts them
  /// (`SIOCOUTQ`; for a Unix socket, the buffers' whole size); `nil` when it does not say. A
  /// client that reads nothing of what it is sent shows here long before its socket is full.
  package var unreadBytes: Int? {
    var count: CInt = 0
    guard ioctl(rawValue, UInt(TIOCOUTQ), &count) == 0 else { return nil }
    return Int(count)
  }
}

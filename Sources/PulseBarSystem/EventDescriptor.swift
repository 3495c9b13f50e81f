internal import CLinux
import Glibc

/// An eventfd: other threads wake a loop by writing to it.
package enum EventDescriptor {
  /// A non-blocking, close-on-exec eventfd.
  package static func make() throws(Errno) -> FileDescriptor {
    let flags = Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK)
    return FileDescriptor(
      rawValue: try valueOrErrno(retryOnInterrupt: true) { eventfd(0, flags) }.get())
  }

  /// Adds 1 (never blocks: the counter would need 2^64 writes to fill).
  package static func signal(_ descriptor: FileDescriptor) {
    var one: UInt64 = 1
    _ = withUnsafeBytes(of: &one) { try? descriptor.write($0) }
  }

  /// Resets the counter.
  package static func drain(_ descriptor: FileDescriptor) {
    var value: UInt64 = 0
    _ = withUnsafeMutableBytes(of: &value) { try? descriptor.read(into: $0) }
  }
}

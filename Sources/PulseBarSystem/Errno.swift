import Glibc

/// A POSIX error number, thrown as a value (`throws(Errno)`), described by `strerror`.
package struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  package let rawValue: CInt

  package init(rawValue: CInt) { self.rawValue = rawValue }

  /// The calling thread's `errno`.
  package static var current: Errno { Errno(rawValue: errno) }

  package var description: String { String(cString: strerror(rawValue)) }

  package static let interrupted = Errno(rawValue: EINTR)
  package static let wouldBlock = Errno(rawValue: EAGAIN)
  package static let brokenPipe = Errno(rawValue: EPIPE)
  package static let connectionRefused = Errno(rawValue: ECONNREFUSED)
  package static let connectionReset = Errno(rawValue: ECONNRESET)
  package static let noSuchFile = Errno(rawValue: ENOENT)
  package static let addressInUse = Errno(rawValue: EADDRINUSE)
  package static let badFileDescriptor = Errno(rawValue: EBADF)
  package static let invalidArgument = Errno(rawValue: EINVAL)
  package static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
}

// MARK: - Syscall plumbing

/// Runs `body` (one system call returning -1 and setting `errno` on failure) and maps the result.
///
/// With `retryOnInterrupt` the call is repeated on EINTR; without it EINTR comes back as an error
/// so the caller can look at a flag (a pending signal, a stop request) before trying again.
@inline(__always)
package func valueOrErrno<I: FixedWidthInteger>(
  retryOnInterrupt: Bool, _ body: () -> I
) -> Result<I, Errno> {
  while true {
    let value = body()
    if value != -1 { return .success(value) }
    let error = Errno.current
    if retryOnInterrupt && error == .interrupted { continue }
    return .failure(error)
  }
}

/// `valueOrErrno` for calls whose only result is success.
@inline(__always)
package func nothingOrErrno<I: FixedWidthInteger>(
  retryOnInterrupt: Bool, _ body: () -> I
) -> Result<Void, Errno> {
  valueOrErrno(retryOnInterrupt: retryOnInterrupt, body).map { _ in () }
}

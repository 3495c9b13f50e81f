import Glibc

/// An open file descriptor: a type, not an `Int32` (swift-system's shape, written here because
/// the toolchain does not ship `System`).
///
/// A value type with no ownership: whoever opens one closes it exactly once with ``close()``.
/// Every blocking call states its EINTR policy through `retryOnInterrupt`.
package struct FileDescriptor: RawRepresentable, Hashable, Sendable {
  package let rawValue: CInt

  package init(rawValue: CInt) { self.rawValue = rawValue }

  package static let standardInput = FileDescriptor(rawValue: 0)
  package static let standardOutput = FileDescriptor(rawValue: 1)
  package static let standardError = FileDescriptor(rawValue: 2)
}

// MARK: - Operations

extension FileDescriptor {
  /// Closes the descriptor. EINTR is not retried: on Linux the descriptor is gone either way.
  package func close() throws(Errno) {
    if Glibc.close(rawValue) == -1 {
      let error = Errno.current
      if error != .interrupted { throw error }
    }
  }

  /// Closes the descriptor and ignores errors (clean-up paths).
  package func closeQuietly() { try? close() }

  /// Reads up to `buffer.count` bytes; 0 at end of file.
  package func read(
    into buffer: UnsafeMutableRawBufferPointer, retryOnInterrupt: Bool = true
  ) throws(Errno) -> Int {
    try valueOrErrno(retryOnInterrupt: retryOnInterrupt) {
      Glibc.read(rawValue, buffer.baseAddress, buffer.count)
    }.get()
  }

  /// Writes some of `bytes` (a short count is normal on non-blocking descriptors).
  package func write(
    _ bytes: UnsafeRawBufferPointer, retryOnInterrupt: Bool = true
  ) throws(Errno) -> Int {
    try valueOrErrno(retryOnInterrupt: retryOnInterrupt) {
      Glibc.write(rawValue, bytes.baseAddress, bytes.count)
    }.get()
  }

  /// Writes all of `bytes`, retrying short writes and EINTR; waits (poll) while the descriptor is
  /// non-blocking and full.
  package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
    var offset = 0
    while offset < bytes.count {
      do {
        offset += try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
      } catch .wouldBlock {
        wait(for: .writable, timeoutMilliseconds: 1000)
      }
    }
  }

  /// Writes all of `text` (see ``writeAll(_:)-(UnsafeRawBufferPointer)``).
  package func writeAll(_ text: String) throws(Errno) {
    var text = text
    let result: Result<Void, Errno> = text.withUTF8 { bytes in
      do throws(Errno) {
        try writeAll(UnsafeRawBufferPointer(bytes))
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try result.get()
  }

  /// A new descriptor for the same open file (`dup`), close-on-exec.
  package func duplicate() throws(Errno) -> FileDescriptor {
    FileDescriptor(
      rawValue: try valueOrErrno(retryOnInterrupt: true) {
        fcntl(rawValue, F_DUPFD_CLOEXEC, 0)
      }.get())
  }

  /// Makes `target` another descriptor for this open file (`dup2`), closing what it was.
  package func duplicate(as target: FileDescriptor) throws(Errno) {
    try nothingOrErrno(retryOnInterrupt: true) { dup2(rawValue, target.rawValue) }.get()
  }

  /// Opens `path` with `flags` (`O_CLOEXEC` is always added) and `permissions` for a file
  /// that `O_CREAT` creates.
  package static func open(
    _ path: String, _ flags: CInt, permissions: mode_t = 0
  ) throws(Errno) -> FileDescriptor {
    FileDescriptor(
      rawValue: try valueOrErrno(retryOnInterrupt: true) {
        Glibc.open(path, flags | O_CLOEXEC, permissions)
      }.get())
  }

  /// Sets or clears `O_NONBLOCK`.
  package func setNonBlocking(_ on: Bool = true) throws(Errno) {
    let flags = try valueOrErrno(retryOnInterrupt: true) { fcntl(rawValue, F_GETFL) }.get()
    let wanted = on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
    if wanted != flags {
      try nothingOrErrno(retryOnInterrupt: true) { fcntl(rawValue, F_SETFL, wanted) }.get()
    }
  }

  /// Sets `FD_CLOEXEC` so children do not inherit the descriptor.
  package func setCloseOnExec() throws(Errno) {
    try nothingOrErrno(retryOnInterrupt: true) { fcntl(rawValue, F_SETFD, FD_CLOEXEC) }.get()
  }
}

import Glibc

/// Unbuffered writes to the standard descriptors (no `FILE*`, which Swift 6 treats as shared mutable state).
package enum Console {
  /// Writes `text` to standard error, retrying on EINTR and short writes.
  package static func error(_ text: String) {
    write(text, to: 2)
  }

  /// Writes `text` to standard output, retrying on EINTR and short writes. Returns false once the reader is gone.
  @discardableResult
  package static func output(_ text: String) -> Bool {
    write(text, to: 1)
  }

  /// Writes all of `text` to `descriptor`; false on any error but EINTR.
  @discardableResult
  package static func write(_ text: String, to descriptor: Int32) -> Bool {
    var text = text
    return text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
  }

  /// Writes all bytes to `descriptor`, blocking; false on any error but EINTR/EAGAIN.
  @discardableResult
  package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN {
          var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
          _ = poll(&pollDescriptor, 1, 1000)
          continue
        }
        return false
      }
      offset += written
    }
    return true
  }
}

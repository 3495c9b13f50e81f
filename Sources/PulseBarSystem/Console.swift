/// Unbuffered writes to the standard descriptors (no `FILE*`, which Swift 6 treats as shared
/// mutable state).
package enum Console {
  /// Writes `text` to standard error, retrying on EINTR and short writes, with every control
  /// or invisible character but its line breaks escaped (``MessageEscaping``): a message
  /// never carries a NUL, an ANSI sequence or a bidi override from what it quotes.
  package static func error(_ text: String) {
    write(MessageEscaping.escapedLines(text), to: .standardError)
  }

  /// Writes `text` to standard output, retrying on EINTR and short writes. Returns false once
  /// the reader is gone.
  @discardableResult
  package static func output(_ text: String) -> Bool {
    write(text, to: .standardOutput)
  }

  /// Writes `text` to standard output for a command that exits after it: true when it was
  /// written, or when the reader went away (EPIPE: `pulsebar --help | head` is no error);
  /// false after one line on stderr naming the failure (stdout closed, a full disk,
  /// `/dev/full`), for exit status 1.
  package static func outputOrSayWhy(_ text: String) -> Bool {
    do {
      try FileDescriptor.standardOutput.writeAll(text)
      return true
    } catch {
      if error == .brokenPipe { return true }
      Console.error("pulsebar: cannot write to stdout: \(error)\n")
      return false
    }
  }

  /// Writes all of `text` to `descriptor`; false on any error but EINTR.
  @discardableResult
  package static func write(_ text: String, to descriptor: FileDescriptor) -> Bool {
    (try? descriptor.writeAll(text)) != nil
  }
}

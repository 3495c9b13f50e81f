import Glibc
import PulseBarSystem

/// Sends stderr to a file while the full-screen view is up, and back afterwards.
///
/// Capture and socket log lines are written straight to stderr, which in
/// `--foreground` is the same terminal the view draws on. On `restore()` the
/// user is told where the lines went, if there were any.
package struct StderrRedirection {
  private let path: String
  private let saved: FileDescriptor

  /// Redirects stderr to `path` (truncated, mode 0600); `nil` when the file cannot be opened.
  package init?(path: String) {
    guard
      let file = try? FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, permissions: 0o600)
    else { return nil }
    defer { file.closeQuietly() }
    guard let saved = try? FileDescriptor.standardError.duplicate() else { return nil }
    self.saved = saved
    _ = try? file.duplicate(as: .standardError)
    self.path = path
  }

  /// Puts stderr back and mentions the log file when something was written to it.
  package func restore() {
    _ = try? saved.duplicate(as: .standardError)
    saved.closeQuietly()
    var status = stat()
    if stat(path, &status) == 0 && status.st_size > 0 {
      Console.error("pulsebar: messages from the session are in \(path)\n")
    }
  }
}

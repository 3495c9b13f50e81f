import Glibc
import PulseBarAudio

/// Sends stderr to a file while the full-screen view is up, and back afterwards.
///
/// Capture and socket log lines are written straight to stderr, which in
/// `--foreground` is the same terminal the view draws on. On `restore()` the
/// user is told where the lines went, if there were any.
package struct StderrRedirection {
  private let path: String
  private let saved: Int32

  /// Redirects stderr to `path` (truncated, mode 0600); `nil` when the file cannot be opened.
  package init?(path: String) {
    let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard file >= 0 else { return nil }
    saved = dup(2)
    dup2(file, 2)
    close(file)
    self.path = path
  }

  /// Puts stderr back and mentions the log file when something was written to it.
  package func restore() {
    dup2(saved, 2)
    close(saved)
    var status = stat()
    if stat(path, &status) == 0 && status.st_size > 0 {
      Console.error("pulsebar: messages from the session are in \(path)\n")
    }
  }
}

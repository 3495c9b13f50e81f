import PulseBarTestSupport
import Testing

extension AudioServerKind {
  /// Cancels the current test case when this kind does not run here, saying why. A cancelled
  /// case reads "passed" on the console, so the reason is also a known issue, which shows.
  func skipUnlessRunnable() throws {
    guard let reason = skipReason else { return }
    withKnownIssue("skipped") { Issue.record(Comment(rawValue: reason)) }
    try Test.cancel(Comment(rawValue: reason))
  }
}

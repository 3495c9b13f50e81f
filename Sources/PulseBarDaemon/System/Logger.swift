import Glibc
import PulseBarSystem

/// One line per message on stderr; with `<N>` syslog priority prefixes when stderr is the
/// journal (`JOURNAL_STREAM` names the device and inode of our stderr), as sd-daemon(3) asks.
package struct Logger: Sendable {
  /// syslog priorities.
  package enum Priority: Int, Sendable, Comparable {
    case error = 3
    case warning = 4
    case notice = 5
    case info = 6
    case debug = 7

    package static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// Prefix lines with `<N>`.
  package var journal: Bool
  /// Lines above this priority (less important) are not written.
  package var threshold: Priority

  package init(journal: Bool = Logger.stderrIsJournal(), verbose: Bool = false) {
    self.journal = journal
    self.threshold = verbose ? .debug : .info
  }

  package func log(_ priority: Priority, _ message: String) {
    guard priority <= threshold else { return }
    Console.error(line(priority, message))
  }

  /// The line written for `message`: one line whatever it holds (a line break is a space; the
  /// other controls are escaped on the way out, by ``Console/error(_:)``), `<N>`-prefixed for
  /// the journal.
  package func line(_ priority: Priority, _ message: String) -> String {
    let text = message.split(separator: "\n", omittingEmptySubsequences: false)
      .joined(separator: " ")
    return journal ? "<\(priority.rawValue)>\(text)\n" : "pulsebar: \(text)\n"
  }

  package func error(_ message: String) { log(.error, message) }
  package func warning(_ message: String) { log(.warning, message) }
  package func notice(_ message: String) { log(.notice, message) }
  package func info(_ message: String) { log(.info, message) }
  /// A line only `-v` shows; `message` is not even built without it.
  package func debug(_ message: @autoclosure () -> String) {
    guard isVerbose else { return }
    log(.debug, message())
  }

  /// True when debug lines are written (`-v`).
  package var isVerbose: Bool { threshold >= .debug }

  /// True when `JOURNAL_STREAM` (`DEV:INODE`) matches the file behind descriptor 2.
  package static func stderrIsJournal() -> Bool {
    guard let stream = environment("JOURNAL_STREAM") else { return false }
    let parts = stream.split(separator: ":")
    guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else {
      return false
    }
    var status = stat()
    guard fstat(2, &status) == 0 else { return false }
    return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
  }
}

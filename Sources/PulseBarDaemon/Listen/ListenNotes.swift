import Glibc
import PulseBarSystem

/// Where `pulsebar listen` says what is wrong (no daemon, a guessed socket path): on stderr,
/// unless stderr is the very pipe stdout is, as polybar's `custom/script` makes it (it reads
/// both through one pipe, so a note there became the module's text: ~1,080 px of "no daemon
/// at …" instead of the offline glyph). Then the note goes to the journal, never into the bar.
package struct ListenNotes: Sendable {
  /// The journal's native socket (systemd-journald.socket).
  package static let journalSocket = "/run/systemd/journal/socket"
  /// True when stderr and stdout are one pipe or socket.
  package let stderrIsStdout: Bool
  private let journal: UnixDatagramSender?

  package init() {
    stderrIsStdout = Self.sameStream(1, 2)
    journal = stderrIsStdout ? UnixDatagramSender(path: Self.journalSocket) : nil
  }

  /// Says `note` (one line, with or without its newline) where a user can read it.
  package func say(_ note: String) {
    guard stderrIsStdout else {
      Console.error(note.hasSuffix("\n") ? note : note + "\n")
      return
    }
    let message = note.split(separator: "\n").joined(separator: " ")
    journal?.send("PRIORITY=4\nSYSLOG_IDENTIFIER=pulsebar\nMESSAGE=\(message)\n")
  }

  /// True when descriptors `first` and `second` are the same pipe or socket (a terminal on both
  /// is a person reading: that stays on stderr).
  static func sameStream(_ first: Int32, _ second: Int32) -> Bool {
    var one = stat()
    var two = stat()
    guard fstat(first, &one) == 0, fstat(second, &two) == 0 else { return false }
    let kind = one.st_mode & S_IFMT
    guard kind == S_IFIFO || kind == S_IFSOCK else { return false }
    return one.st_dev == two.st_dev && one.st_ino == two.st_ino
  }
}

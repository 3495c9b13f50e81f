import Glibc
import PulseBarCore
import PulseBarSystem

/// Who reads `pulsebar listen`'s text lines, and what listen changes in them for that reader.
///
/// The daemon's plain text line (`markup = none`) may go to polybar, i3blocks or a terminal,
/// and it cannot know which; listen can:
/// - **polybar** (a process named `polybar` among listen's ancestors: polybar runs a
///   `custom/script` through `sh -c`) does no bidi: each right-to-left value, which the daemon
///   isolates (U+2068 … U+2069, ``BidiText``), is written in display order and shaped with GNU
///   FriBidi instead, without the isolates (polybar has no glyph for them), and padded with
///   figure spaces to the cells it had (an Arabic ligature draws two letters in one); and a
///   flag is written as its two letters (``UntrustedText/flagsAsLetters(_:)``);
/// - **i3blocks** (`BLOCK_NAME` set) and a **terminal** (stdout is one) are not polybar:
///   polybar's empty tag `%{O0}`, which the daemon puts between a title's `%` and `{`, is
///   taken out, so they show the title's own characters;
/// - anything else (Waybar's JSON, eww, a script) gets the lines as they came.
enum ListenReader: Equatable {
  case polybar
  case notPolybar
  case unknown

  /// The reader of this process's stdout.
  static func detect() -> ListenReader {
    if hasAncestor(named: "polybar") { return .polybar }
    if environment("BLOCK_NAME") != nil || isatty(STDOUT_FILENO) == 1 { return .notPolybar }
    return .unknown
  }

  /// True when a process named `name` is this one's parent, grandparent, … (up to 8 up).
  static func hasAncestor(named name: String) -> Bool {
    var pid = getppid()
    for _ in 0..<8 where pid > 1 {
      guard let stat = try? RegularFile.read("/proc/\(pid)/stat", maximumBytes: 4096) else {
        return false
      }
      // `pid (comm) state ppid …`: the name is between the first `(` and the last `)`.
      guard let open = stat.firstIndex(of: UInt8(ascii: "(")),
        let close = stat.lastIndex(of: UInt8(ascii: ")")), open < close
      else { return false }
      if String(decoding: stat[(open + 1)..<close], as: UTF8.self) == name { return true }
      let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
      guard fields.count > 1, let parent = Int32(String(decoding: fields[1], as: UTF8.self))
      else { return false }
      pid = parent
    }
    return false
  }

  private static let isolateStart = Array(String(BidiText.isolateStart).utf8)
  private static let tagBreak = Array("%{O0}".utf8)

  /// `lines` (whole text lines) as this reader should get them, or `nil` when they are
  /// right as they are (the usual case: only right-to-left titles and `%{` change anything).
  func adapted(_ lines: UnsafeRawBufferPointer) -> [UInt8]? {
    switch self {
    case .unknown: return nil
    case .notPolybar:
      guard lines.firstRange(of: Self.tagBreak) != nil else { return nil }
      var out = Array(lines)
      while let range = out.firstRange(of: Self.tagBreak) { out.removeSubrange(range) }
      return out
    case .polybar:
      // A regional indicator's UTF-8 starts F0 9F 87.
      guard
        lines.firstRange(of: Self.isolateStart) != nil
          || lines.firstRange(of: [0xF0, 0x9F, 0x87]) != nil
      else { return nil }
      let ordered = Self.inDisplayOrder(String(decoding: lines, as: UTF8.self))
      return Array(UntrustedText.flagsAsLetters(String(decoding: ordered, as: UTF8.self)).utf8)
    }
  }

  /// `text` with each isolated run in display order, shaped, without its isolates, padded to
  /// its cells.
  static func inDisplayOrder(_ text: String) -> [UInt8] {
    var out = String.UnicodeScalarView()
    var run = String.UnicodeScalarView()
    var inRun = false
    func closeRun() {
      let logical = String(run)
      let visual = BidiText.visual(logical)
      out.append(contentsOf: visual.unicodeScalars)
      let lost = TextCells.width(of: logical) - TextCells.width(of: visual)
      for _ in 0..<max(0, lost) { out.append("\u{2007}") }
      run = String.UnicodeScalarView()
    }
    for scalar in text.unicodeScalars {
      switch scalar {
      case BidiText.isolateStart:
        if inRun { closeRun() }
        inRun = true
      case BidiText.isolateEnd:
        if inRun { closeRun() }
        inRun = false
      case "\n":
        if inRun { closeRun() }
        inRun = false
        out.append(scalar)
      default:
        if inRun { run.append(scalar) } else { out.append(scalar) }
      }
    }
    if inRun { closeRun() }
    return Array(String(out).utf8)
  }
}

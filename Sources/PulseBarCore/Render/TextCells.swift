/// Display cells of text in a terminal or a status bar, for fitting a track title into a fixed
/// number of cells (`output.title_width`).
///
/// A small `wcwidth`: combining marks and format characters take none, East Asian wide and
/// fullwidth characters and emoji take two, everything else one. Whole characters (grapheme
/// clusters) are kept or cut, never split.
package enum TextCells {
  /// What fills free cells: U+2007 FIGURE SPACE, as in the bubble area (one cell, in DejaVu,
  /// not trimmed as whitespace by the bars).
  package static let padding: Character = "\u{2007}"
  /// What marks a cut title.
  package static let ellipsis: Character = "…"

  /// `text` in exactly `cells` cells: cut with "…" when longer, padded with figure spaces.
  ///
  /// Reads no further into `text` than the character that overflows `cells`, so a title of
  /// any length costs only the cells shown.
  package static func fit(_ text: String, cells: Int) -> String {
    guard cells > 0 else { return "" }
    var used = 0
    // Where the text would have to stop for an ellipsis to follow, and the cells used there.
    var endBeforeEllipsis = text.startIndex
    var usedBeforeEllipsis = 0
    var index = text.startIndex
    var overflows = false
    while index < text.endIndex {
      let cost = width(of: text[index])
      if used + cost > cells {
        overflows = true
        break
      }
      used += cost
      index = text.index(after: index)
      if used <= cells - 1 {
        endBeforeEllipsis = index
        usedBeforeEllipsis = used
      }
    }
    var result = ""
    // Control characters (a newline in a title) would break the line: they become spaces.
    let shown = overflows ? text[..<endBeforeEllipsis] : text[..<index]
    for character in shown {
      result.append(
        character.isNewline || (character.asciiValue.map { $0 < 0x20 } ?? false) ? " " : character)
    }
    if overflows {
      result.append(ellipsis)
      used = usedBeforeEllipsis + 1
    }
    while used < cells {
      result.append(padding)
      used += 1
    }
    return result
  }

  /// Cells `text` takes.
  package static func width(of text: String) -> Int {
    var counter = CellCounter()
    for scalar in text.unicodeScalars { counter.add(scalar) }
    return counter.cells
  }

  /// Cells one character (grapheme cluster) takes, as ``CellCounter`` counts it.
  package static func width(of character: Character) -> Int {
    var counter = CellCounter()
    for scalar in character.unicodeScalars { counter.add(scalar) }
    return counter.cells
  }

  /// Cells one scalar takes where it starts a character: 0, 1 or 2.
  static func startWidth(_ scalar: Unicode.Scalar) -> Int {
    if scalar.value < 0x20 { return 1 }  // shown as a space by `fit`
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    return isWide(scalar.value) ? 2 : 1
  }

  /// East Asian wide or fullwidth, or an emoji shown as a picture.
  static func isWide(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
      0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
      0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA,
      0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757,
      0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55, 0x2E80...0x303E,
      0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
      0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251,
      0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393,
      0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4, 0x1F3F8...0x1F43E,
      0x1F440, 0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567,
      0x1F57A, 0x1F595...0x1F596, 0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC,
      0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC,
      0x1F7E0...0x1F7EB, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
      0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return true
    default:
      return false
    }
  }
}

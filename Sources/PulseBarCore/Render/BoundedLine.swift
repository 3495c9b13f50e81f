/// A line for a bar that keeps only so many bytes of one: i3blocks 1.4 keeps 1,024 bytes of
/// a line (with its newline) and cuts a longer one anywhere, inside a character or a Pango
/// tag; swaybar then rejects the text and blanks the whole bar, workspaces included.
///
/// A live line can be that long (fields without a width holding 1,000-byte values, a Pango
/// gradient over many bars), so `pulsebar listen`, relaying to i3blocks, replaces a line
/// longer than ``i3blocksBytes`` by ``fitted(_:maximumBytes:)``: its text without Pango tags
/// (so without colours; entities kept, so the text stays valid Pango), cut between characters
/// and never inside an entity, then padded with figure spaces toward the line's visible width
/// as far as the bytes allow. A line that fits is never touched. Runs only for an over-long
/// line (a few allocations then); a line that fits costs a length check.
package enum BoundedLine {
  /// The most bytes of a line (without its newline) sent to i3blocks: 1,024 less room to
  /// spare, as for `listen`'s own offline line.
  package static let i3blocksBytes = 1000

  /// `line` (one line, without its newline) within `maximumBytes`: as it is when it fits,
  /// else made safe as the type's docs say. The result is valid UTF-8 (invalid bytes become
  /// U+FFFD), holds whole characters, and is valid Pango markup when `line` was.
  package static func fitted(_ line: some Collection<UInt8>, maximumBytes: Int) -> [UInt8] {
    guard line.count > maximumBytes else { return Array(line) }
    let markup = VisibleCells.guessedMarkup(of: line) == .pango ? VisibleCells.Markup.pango : .none
    let cells = VisibleCells.count(line, markup: markup)
    let text = String(decoding: line, as: UTF8.self)
    let shown = markup == .pango ? withoutTags(text) : text
    var kept = String.UnicodeScalarView()
    var used = 0
    var units = Units(shown, pango: markup == .pango)
    while let unit = units.next() {
      let bytes = unit.utf8.count
      guard used + bytes <= maximumBytes else { break }
      kept.append(contentsOf: unit.unicodeScalars)
      used += bytes
    }
    var result = String(kept)
    let keptCells = VisibleCells.count(result.utf8, markup: markup)
    let room = (maximumBytes - used) / TextCells.padding.utf8.count
    let missing = min(cells - keptCells, room)
    if missing > 0 { result += String(repeating: TextCells.padding, count: missing) }
    return Array(result.utf8)
  }

  /// `text` without its `<…>` tags (a tag left open drops the rest).
  static func withoutTags(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    var inTag = false
    for scalar in text.unicodeScalars {
      if inTag {
        if scalar == ">" { inTag = false }
      } else if scalar == "<" {
        inTag = true
      } else {
        scalars.append(scalar)
      }
    }
    return String(scalars)
  }

  /// The pieces a cut may fall between: characters (grapheme clusters), and in Pango an
  /// entity (`&amp;`, `&#8199;`) with the character its `;` starts.
  struct Units: IteratorProtocol {
    private let text: String
    private let pango: Bool
    private var index: String.Index

    init(_ text: String, pango: Bool) {
      self.text = text
      self.pango = pango
      index = text.startIndex
    }

    mutating func next() -> Substring? {
      guard index < text.endIndex else { return nil }
      let start = index
      let first = text[index].unicodeScalars.first
      index = text.index(after: index)
      guard pango, first == "&" else { return text[start..<index] }
      // To the character that starts with the entity's `;` (at most a long entity's length).
      var scanned = 0
      var end = index
      while end < text.endIndex && scanned < 12 {
        let character = text[end]
        end = text.index(after: end)
        scanned += 1
        if character.unicodeScalars.first == ";" {
          index = end
          break
        }
      }
      return text[start..<index]
    }
  }
}

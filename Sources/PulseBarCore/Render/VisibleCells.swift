/// The cells a bar shows of one rendered line: its text without the markup its reader parses,
/// counted by ``CellCounter``. Reads the bytes once and allocates nothing, so the renderer can
/// measure every line it draws.
///
/// - ``Markup/pango``: `<…>` tags take nothing, an entity (`&amp;`, `&#8199;`) is its one
///   character;
/// - ``Markup/polybar``: `%{…}` tags take nothing;
/// - ``Markup/ansi``: `ESC [ … final` sequences take nothing;
/// - ``Markup/pangoInJSON``: a JSON string's body (`\"`, `\\`, `\n`, `\uXXXX`) read as Pango.
/// Invalid UTF-8 counts as U+FFFD, one cell.
package enum VisibleCells {
  package enum Markup: Sendable {
    case none, pango, polybar, ansi, pangoInJSON
  }

  /// The cells `line` shows in `markup`.
  package static func count(_ line: some Collection<UInt8>, markup: Markup) -> Int {
    var stripper = MarkupStripper(markup: markup == .pangoInJSON ? .pango : markup)
    var iterator = line.makeIterator()
    var decoder = UTF8()
    var json = JSONUnescaper()
    loop: while true {
      let scalar: Unicode.Scalar
      switch decoder.decode(&iterator) {
      case .scalarValue(let value): scalar = value
      case .error: scalar = "\u{FFFD}"
      case .emptyInput: break loop
      }
      if markup == .pangoInJSON {
        if let decoded = json.feed(scalar) { stripper.feed(decoded) }
      } else {
        stripper.feed(scalar)
      }
    }
    stripper.finish()
    return stripper.counter.cells
  }

  /// The markup a text line from the daemon is in, read from the line itself (a listener does
  /// not know the daemon's `output.markup`): pulsebar writes ESC only for ANSI colours, `%{`
  /// only in polybar tags (values never form one), `<span` for Pango and escapes `&` there.
  package static func guessedMarkup(of line: some Collection<UInt8>) -> Markup {
    let bytes = Array(line)
    if bytes.contains(0x1B) { return .ansi }
    if bytes.firstRange(of: Array("%{".utf8)) != nil { return .polybar }
    for marker in ["<span", "</span>", "&amp;", "&lt;", "&gt;", "&#"]
    where bytes.firstRange(of: Array(marker.utf8)) != nil {
      return .pango
    }
    return .none
  }
}

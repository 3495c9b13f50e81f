/// The lines of the track's synced lyric escaped for one line's dialect, and fitted to each
/// width a template gives `{lyric:N}`: made once per lyric (a new track), so a frame only
/// finds the line for the position (``SyncedLyric/lineIndex(at:)``) and copies its bytes.
struct LyricLines {
  /// The widths the templates ask (0: the line's own width), in the order of ``tables``.
  private let widths: [Int]
  private let dialect: UntrustedText.Dialect
  /// How the line's cells are read (each line's ``CellSpan``); `nil`: not counted.
  private let markup: VisibleCells.Markup?
  private(set) var lyric: SyncedLyric?
  /// Per width: every line, escaped (and fitted).
  private var tables: [GlyphTable] = []

  init(widths: [Int], dialect: UntrustedText.Dialect, markup: VisibleCells.Markup? = nil) {
    self.widths = widths
    self.dialect = dialect
    self.markup = markup
  }

  /// A new lyric (or none); the same one again costs a comparison (its lines are one array,
  /// compared by identity first).
  mutating func update(_ lyric: SyncedLyric?) {
    guard lyric != self.lyric else { return }
    self.lyric = lyric
    tables = widths.map { width in
      GlyphTable(
        (lyric?.lines ?? []).map { line in
          var escaped = ByteLine()
          if width > 0 {
            let fitted = TextCells.fit(UntrustedText.sanitized(line.text), cells: width)
            UntrustedText.appendFitted(fitted, as: dialect, to: &escaped)
          } else {
            UntrustedText.append(line.text, as: dialect, to: &escaped)
          }
          return String(decoding: escaped.bytes, as: UTF8.self)
        }, markup: markup)
    }
  }

  /// The line shown at `seconds` into the track, when there is one with text.
  func line(at seconds: Double?) -> Int? {
    guard let seconds, let lyric, let index = lyric.lineIndex(at: seconds),
      !lyric.lines[index].text.isEmpty
    else { return nil }
    return index
  }

  /// Appends line `index` (from ``line(at:)``) as fitted to `width`; with no line, `width`
  /// cells of padding.
  func append(_ index: Int?, width: Int, into out: inout ByteLine) {
    guard let index, let table = widths.firstIndex(of: width) else {
      return FieldText.appendPadding(width, into: &out)
    }
    tables[table].withGlyph(index) { out.append($0) }
  }

  /// The cells ``append(_:width:into:)`` draws.
  func span(_ index: Int?, width: Int) -> CellSpan {
    guard let index, let table = widths.firstIndex(of: width) else { return .plain(width) }
    return tables[table].span(index)
  }
}

/// The bar, bubble and morph glyphs of a configuration in one encoding.
struct TextGlyphs: Sendable {
  let encoding: GlyphEncoding
  let bars: GlyphTable
  let bubbles: GlyphTable
  let morph: GlyphTable

  /// The glyphs in `encoding`, with their cells in `markup` when given (``GlyphTable``).
  init(
    _ configuration: Configuration, encoding: GlyphEncoding, markup: VisibleCells.Markup? = nil
  ) {
    self.encoding = encoding
    bars = GlyphTable(configuration.barGlyphs.map { Self.encoded($0, encoding) }, markup: markup)
    bubbles = GlyphTable(
      configuration.bubbleGlyphs.map { Self.encoded($0, encoding) }, markup: markup)
    morph = GlyphTable(
      configuration.morphGlyphs.map { Self.encoded($0, encoding) }, markup: markup)
  }

  /// `glyph` written in `encoding`.
  static func encoded(_ glyph: String, _ encoding: GlyphEncoding) -> String {
    var line = ByteLine()
    switch encoding {
    case .plain: line.append(Array(glyph.utf8))
    case .json: line.appendJSONEscaped(glyph.utf8)
    case .pango: line.appendMarkupEscaped(glyph.utf8, inJSON: false)
    case .pangoInJSON: line.appendMarkupEscaped(glyph.utf8)
    }
    return String(decoding: line.bytes, as: UTF8.self)
  }
}

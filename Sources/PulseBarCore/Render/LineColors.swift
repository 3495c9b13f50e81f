/// The colour tags of one line, made once (`[colors]` in the line's dialect), so a frame only
/// copies bytes: the bars' gradient, the glyph's colour per state, the bubbles' colour.
///
/// A coloured bar is one entry of ``bars``: its opening tag, its glyph and the closing tag,
/// so a frame copies one run of bytes per bar. A gradient over position is laid out for a bar
/// count on the first frame that has it (a renderer serves one bar count, so once); over height
/// it is per glyph level. Art colours (``ArtPalette``) replace the configured gradient and
/// glyph colours once per track change (``use(_:)``), never per frame.
struct LineColors: Sendable {
  private let dialect: LineDialect
  private var barStops: [RGBColor]
  /// `[colors]` as configured: the gradient, and the glyph's (per state) and bubbles' colours.
  private let configuredStops: [RGBColor]
  private let configuredSingles: [RGBColor?]
  /// The art palette in use, `nil`: the configured colours.
  private var palette: ArtPalette?
  private let coloring: BarColoring
  /// The bar glyphs in the dialect, lowest first.
  private let barGlyphs: [String]
  /// Per colour (bar by position, level by height) × glyph level: the coloured glyph.
  private(set) var bars = GlyphTable([])
  /// The bar count ``barTags`` was laid out for (by position).
  private var laidOutBars = -1
  /// The glyph's opening tag per state (playing, paused, stopped; empty: none) and the
  /// bubbles' (index 3).
  private(set) var tags: GlyphTable
  /// The closing tag (empty when the dialect has no colour).
  let closing: GlyphTable

  init(_ configuration: Configuration, dialect: LineDialect) {
    self.dialect = dialect
    let colored = dialect.colors != .none
    configuredStops = colored ? configuration.barColors : []
    barStops = configuredStops
    coloring = configuration.barColoring
    barGlyphs = configuration.barGlyphs.map { TextGlyphs.encoded($0, dialect.glyphEncoding) }
    configuredSingles = [
      configuration.playingColor, configuration.pausedColor, configuration.stoppedColor,
      configuration.bubbleColor,
    ]
    tags = Self.tags(configuredSingles, dialect: dialect)
    closing = GlyphTable([dialect.encoded(dialect.colorClosing)], markup: dialect.markup)
    if coloring == .height { bars = coloredBars(count: barGlyphs.count) }
  }

  /// Takes the track's art colours (`nil`: back to the configured ones); a no-op when they
  /// did not change. Once per track change: it encodes every tag afresh.
  mutating func use(_ palette: ArtPalette?) {
    guard palette != self.palette, dialect.colors != .none else { return }
    self.palette = palette
    barStops = palette?.bars ?? configuredStops
    var singles = configuredSingles
    if let palette { singles[0...2] = [palette.glyph, palette.glyphDimmed, palette.glyphDimmed] }
    tags = Self.tags(singles, dialect: dialect)
    laidOutBars = -1
    bars = coloring == .height ? coloredBars(count: barGlyphs.count) : GlyphTable([])
  }

  private static func tags(_ singles: [RGBColor?], dialect: LineDialect) -> GlyphTable {
    let colored = dialect.colors != .none
    return GlyphTable(
      singles.map { color in
        color.map { colored ? dialect.encoded(dialect.colorOpening($0)) : "" } ?? ""
      }, markup: dialect.markup)
  }

  /// True when the bars are coloured.
  var colorsBars: Bool { !barStops.isEmpty }

  /// Lays the gradient out for `count` bars (by position; by height it is laid out already).
  mutating func prepare(barCount count: Int) {
    guard coloring == .position, colorsBars, count != laidOutBars else { return }
    laidOutBars = count
    bars = coloredBars(count: count)
  }

  /// The entry of ``bars`` for bar `index` at glyph `level`.
  @inline(__always)
  func bar(index: Int, level: Int) -> Int {
    (coloring == .position ? index : level) * barGlyphs.count + level
  }

  /// The tag index of the glyph's colour in `state`.
  static func glyphTag(_ state: PlaybackState) -> Int {
    switch state {
    case .playing: 0
    case .paused: 1
    case .stopped: 2
    }
  }

  static let bubbleTag = 3

  /// `count` colours along the gradient, each with every bar glyph.
  private func coloredBars(count: Int) -> GlyphTable {
    guard !barStops.isEmpty, count > 0 else { return GlyphTable([]) }
    var entries: [String] = []
    for index in 0..<count {
      let t = count > 1 ? Float(index) / Float(count - 1) : 0
      let opening = dialect.encoded(dialect.colorOpening(RGBColor.gradient(barStops, at: t)))
      let closing = dialect.encoded(dialect.colorClosing)
      entries += barGlyphs.map { opening + $0 + closing }
    }
    return GlyphTable(entries, markup: dialect.markup)
  }
}

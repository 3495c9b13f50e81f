/// The colour tags of one line, made once (`[colors]` in the line's dialect), so a frame only
/// copies bytes: the bars' gradient, the glyph's colour per state, the bubbles' colour.
///
/// A gradient over position is laid out for a bar count on the first frame that has it (a
/// renderer serves one bar count, so once); over height it is per glyph level.
struct LineColors: Sendable {
  private let dialect: LineDialect
  private let barStops: [RGBColor]
  private let coloring: BarColoring
  private let levels: Int
  /// One opening tag per bar (by position) or per glyph level (by height); empty: no colour.
  private(set) var barTags = GlyphTable([])
  /// The bar count ``barTags`` was laid out for (by position).
  private var laidOutBars = -1
  /// The glyph's opening tag per state (playing, paused, stopped; empty: none) and the
  /// bubbles' (index 3).
  let tags: GlyphTable
  /// The closing tag (empty when the dialect has no colour).
  let closing: GlyphTable

  init(_ configuration: Configuration, dialect: LineDialect) {
    self.dialect = dialect
    let colored = dialect.colors != .none
    barStops = colored ? configuration.barColors : []
    coloring = configuration.barColoring
    levels = configuration.barGlyphs.count
    let singles = [
      configuration.playingColor, configuration.pausedColor, configuration.stoppedColor,
      configuration.bubbleColor,
    ]
    tags = GlyphTable(
      singles.map { color in
        color.map { colored ? dialect.encoded(dialect.colorOpening($0)) : "" } ?? ""
      })
    closing = GlyphTable([dialect.encoded(dialect.colorClosing)])
    if coloring == .height { barTags = Self.gradient(barStops, count: levels, dialect: dialect) }
  }

  /// True when the bars are coloured.
  var colorsBars: Bool { !barStops.isEmpty }

  /// Lays the gradient out for `count` bars (by position; by height it is laid out already).
  mutating func prepare(barCount count: Int) {
    guard coloring == .position, colorsBars, count != laidOutBars else { return }
    laidOutBars = count
    barTags = Self.gradient(barStops, count: count, dialect: dialect)
  }

  /// The tag index for bar `index` at glyph `level`.
  @inline(__always)
  func barTag(index: Int, level: Int) -> Int { coloring == .position ? index : level }

  /// The tag index of the glyph's colour in `state`.
  static func glyphTag(_ state: PlaybackState) -> Int {
    switch state {
    case .playing: 0
    case .paused: 1
    case .stopped: 2
    }
  }

  static let bubbleTag = 3

  private static func gradient(_ stops: [RGBColor], count: Int, dialect: LineDialect)
    -> GlyphTable
  {
    guard !stops.isEmpty, count > 0 else { return GlyphTable([]) }
    return GlyphTable(
      (0..<count).map { index in
        let t = count > 1 ? Float(index) / Float(count - 1) : 0
        return dialect.encoded(dialect.colorOpening(RGBColor.gradient(stops, at: t)))
      })
  }
}

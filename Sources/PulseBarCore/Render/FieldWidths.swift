/// The most cells each template field can draw, and so a template's width with every field at
/// its most (``fullWidth(of:)``): what ``TemplateRenderer/knownWidth`` pads every line to.
///
/// A field with a width in the template (`{title:24}`) takes that width. One without takes
/// what it can show at the most (``impliedWidth(_:)``): the glyph, the bars and the bubble
/// area their fixed cells; `{volume}` 4 (`100%`); `{position}` and `{length}` `m:ss`, then as
/// wide as the longest track's clock shown (``showClock(_:)``, never narrower again);
/// `{state}` 12 (`Disconnected`); `{player_icon}` the widest icon; `{progress}` 10. Text of
/// unbounded width (`{title}`, `{artist}`, `{album}`, `{lyric}`, `{player}`, `{source}`
/// without a width) has no most: the template's width is then unknown.
struct FieldWidths {
  /// Bars drawn by `{bars}` without a width: `general.bars`, then as many as the last frame
  /// drew.
  var barCount: Int
  /// Cells of `{position}` and `{length}` without a width.
  private(set) var clockCells = 4
  /// Cells of `{player_icon}` without a width: the widest configured icon.
  private let iconCells: Int
  /// Cells of the bubble area without a width (`bubbles.max`).
  private let bubbleSlots: Int
  /// The widest glyph of each kind, in cells.
  private let morphCells: Int
  private let barCells: Int
  private let bubbleCells: Int

  /// `{state}`'s longest word: `Disconnected`.
  static let longestStateWord = 12

  init(_ configuration: Configuration, glyphs: TextGlyphs) {
    barCount = configuration.bars
    bubbleSlots = max(0, configuration.bubbleMax)
    let icons = configuration.playerIcons
    iconCells = (icons.entries.map(\.icon) + [icons.fallback]).map(TextCells.width(of:)).max() ?? 0
    func widest(_ table: GlyphTable) -> Int {
      (0..<table.count).map { table.span($0).cells }.max() ?? 0
    }
    morphCells = widest(glyphs.morph)
    barCells = widest(glyphs.bars)
    bubbleCells = glyphs.bubbles.isEmpty ? 0 : max(1, widest(glyphs.bubbles))
  }

  /// A track's clock (`h:mm:ss`) was shown: the clock fields are at least as wide from now on.
  mutating func showClock(_ clock: String) {
    clockCells = max(clockCells, clock.utf8.count)
  }

  /// The most cells `field` draws when the template gives it no width; 0 for the fields drawn
  /// at their own fixed width (glyph, bars, bubbles) and for unbounded text.
  func impliedWidth(_ field: Template.Field) -> Int {
    switch field {
    case .volume: 4
    case .position, .length: clockCells
    case .state: Self.longestStateWord
    case .playerIcon: iconCells
    case .progress: 10
    case .glyph, .bars, .bubbles, .player, .title, .artist, .album, .source, .lyric: 0
    }
  }

  /// The widest of `templates` with every field at its most, or `nil` when one is unbounded.
  func widest(of templates: some Sequence<CompiledTemplate>) -> Int? {
    var widest = 0
    for template in templates {
      guard let cells = fullWidth(of: template) else { return nil }
      widest = max(widest, cells)
    }
    return widest
  }

  /// The cells of `template` with every field at its most, as ``TemplateRenderer`` lays it
  /// out: a field that can draw nothing (no bubble area) is left out with its brackets, and
  /// between two fields the lightest separator that stood between them is kept. `nil` when a
  /// field is unbounded.
  func fullWidth(of template: CompiledTemplate) -> Int? {
    var cells =
      template.literals.span(CompiledTemplate.prefix).cells
      + template.literals.span(CompiledTemplate.suffix).cells
    var previous = -1
    for item in template.fields.indices {
      let width = template.widths[item]
      guard let field = mostCells(template.fields[item], width: width) else { return nil }
      guard field > 0 || width > 0 else { continue }
      if previous >= 0 {
        cells += template.literals.span(template.lightestSeparator(from: previous, to: item)).cells
      }
      cells += field + template.literals.span(CompiledTemplate.opener(item)).cells
      cells += template.literals.span(CompiledTemplate.closer(item)).cells
      previous = item
    }
    return cells
  }

  /// The most cells `field` with `width` (0: none) can draw; `nil` when unbounded.
  private func mostCells(_ field: Template.Field, width: Int) -> Int? {
    switch field {
    case .glyph: max(width, morphCells)
    case .bars: width > 0 ? width : barCount * barCells
    case .bubbles: width > 0 ? width : bubbleSlots * bubbleCells
    case .player, .title, .artist, .album, .source, .lyric: width > 0 ? width : nil
    case .volume, .position, .length, .state, .playerIcon, .progress:
      width > 0 ? width : impliedWidth(field)
    }
  }
}

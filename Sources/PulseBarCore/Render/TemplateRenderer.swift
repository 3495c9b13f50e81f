/// Draws a line's templates frame by frame into a ``ByteLine`` with no allocation: the one
/// template engine of the text line, waybar's `text` and waybar's `tooltip`.
///
/// Player and track fields (``Template/Field/isTrackField``) are fitted and escaped once per
/// change (``update(nowPlaying:source:connected:)``); the glyph, bars, bubbles, state, position
/// and progress are drawn per frame from pre-encoded glyphs and colour tags. Glyphs count one
/// cell each (every default glyph does) when a width fits them.
struct TemplateRenderer {
  let dialect: LineDialect
  private var templates: [CompiledTemplate]
  let glyphs: TextGlyphs
  private(set) var colors: LineColors
  /// Cells of the bubble area without a width (`bubbles.max`).
  let bubbleSlots: Int
  /// Where the player is in its track, when it says.
  private(set) var position: PlaybackPosition?
  /// The track's synced lyric, escaped for `{lyric}`.
  private var lyricLines: LyricLines
  /// Connected to the audio server: `{state}` says `Disconnected` while not.
  private var connected = true
  /// The clock text of the position, before it is fitted.
  var scratch = ByteLine(capacity: 32)
  /// The widest line drawn since the track changed, which later lines are padded to.
  private var widest: WidestLine
  /// The visible cells of the line last rendered, added up field by field (``CellTally``);
  /// `nil` when two of its runs met where the line has to be counted whole.
  private(set) var renderedCells: Int?

  /// How scrolling fields move (`output.scroll_*`).
  private let scrollStyle: ScrollStyle
  /// `{player_icon}`'s icons.
  private let playerIcons: PlayerIcons
  /// The templates that are the line's text (the others, a tooltip, have no width to keep).
  private let lineTemplates: Range<Int>
  /// What each field can take, for the line's known width.
  private var fieldWidths: FieldWidths

  /// A renderer for `texts` (template texts, already checked) in `dialect`.
  init(texts: [String], fallback: String, dialect: LineDialect, configuration: Configuration) {
    self.dialect = dialect
    widest = WidestLine(dialect)
    scrollStyle = ScrollStyle(configuration)
    templates = texts.map {
      CompiledTemplate(Template(validated: $0, fallback: fallback), dialect: dialect)
    }
    glyphs = TextGlyphs(configuration, encoding: dialect.glyphEncoding, markup: dialect.markup)
    colors = LineColors(configuration, dialect: dialect)
    bubbleSlots = max(0, configuration.bubbleMax)
    lyricLines = LyricLines(
      widths: Array(Set(templates.flatMap { $0.widths(of: .lyric) })), dialect: dialect.values,
      markup: dialect.markup)
    playerIcons = configuration.playerIcons
    lineTemplates = 0..<min(texts.count, PlaybackState.allCases.count)
    fieldWidths = FieldWidths(configuration, glyphs: glyphs)
    widest.floor = knownWidth ?? 0
  }

  /// True when template `index` shows a field drawn per frame other than the state (glyph,
  /// bars, bubbles, position, progress).
  func drawsPerFrame(_ index: Int) -> Bool {
    templates[index].shows(.glyph, .bars, .bubbles, .position, .progress, .lyric)
  }

  /// True when a template shows the position or the progress (the engine then wakes for it).
  var showsPosition: Bool { templates.contains { $0.shows(.position, .progress) } }

  /// True when a template shows the lyric line (the engine then wakes when it changes).
  var showsLyric: Bool { templates.contains { $0.shows(.lyric) } }

  /// What padding and free cells are filled with: U+2007 FIGURE SPACE (one cell, not trimmed
  /// as whitespace by the bars).
  static let figureSpace: StaticString = "\u{2007}"

  // MARK: - Once per change

  /// Fits and escapes the track fields for a new player, track, source or connection.
  mutating func update(nowPlaying: NowPlaying?, source: String, connected: Bool) {
    position = nowPlaying?.playbackPosition
    lyricLines.update(nowPlaying?.lyric)
    colors.use(nowPlaying?.artPalette)
    self.connected = connected
    widest.trackChanged(to: nowPlaying)
    if let length = nowPlaying?.length { fieldWidths.showClock(Self.clockText(length)) }
    widest.floor = knownWidth ?? 0
    for index in templates.indices {
      var template = templates[index]
      for item in template.fields.indices where template.fields[item].isTrackField {
        let value: String? =
          switch template.fields[item] {
          case .player: nowPlaying?.player
          case .title: nowPlaying?.title
          case .artist: nowPlaying?.artist
          case .album: nowPlaying?.album
          case .length: nowPlaying?.length.map(Self.clockText)
          case .source: connected ? source : "audio server unreachable"
          case .volume: nowPlaying?.volume.map(Self.percentText)
          case .playerIcon: nowPlaying.map { playerIcons.icon(for: $0.player) }
          default: nil
          }
        template.setTrackValue(item, to: value, dialect: dialect, scrollStyle: scrollStyle)
      }
      templates[index] = template
    }
  }

  /// The monotonic time after `clock` at which a scrolling field next moves, while playing.
  func nextScrollStep(after clock: Double) -> Double? {
    templates.lazy.compactMap { $0.nextScrollStep(after: clock) }.min()
  }

  /// A `Volume` (bounded: ``PlayerValueBounds/volume(_:)``) as a whole percentage.
  static func percentText(_ volume: Double) -> String {
    "\(Int((min(max(volume, 0), PlayerValueBounds.maximumVolume) * 100).rounded()))%"
  }

  private static func clockText(_ seconds: Double) -> String {
    var line = ByteLine()
    PlaybackPosition.appendClock(seconds, into: &line)
    return String(decoding: line.bytes, as: UTF8.self)
  }

  // MARK: - Per frame

  /// Appends template `index` for this frame; `clock` is the monotonic time the position is
  /// extrapolated to (`nil`: as last sampled). Adds up its cells as it goes (``renderedCells``).
  mutating func render(
    _ index: Int, into out: inout ByteLine, scene: borrowing Scene,
    bars: UnsafeBufferPointer<Float>, clock: Double?
  ) {
    colors.prepare(barCount: bars.count)
    if bars.count != fieldWidths.barCount {
      fieldWidths.barCount = bars.count
      widest.floor = knownWidth ?? 0
    }
    // Scroll time runs while the line plays (advanced in place: no copy of the template).
    if let clock { templates[index].advanceMarquees(to: clock, playing: scene.state == .playing) }
    let template = templates[index]
    let seconds = position.map { $0.seconds(at: clock ?? $0.sampledAt) }
    var tally = CellTally()
    appendLiteral(CompiledTemplate.prefix, of: template, into: &out, tally: &tally)
    var previous = -1
    for item in template.fields.indices {
      let field = template.fields[item]
      let width = template.widths[item]
      guard width > 0 || isPresent(field, value: template.values[item], seconds: seconds) else {
        continue
      }
      if previous >= 0 {
        appendLiteral(
          template.lightestSeparator(from: previous, to: item), of: template, into: &out,
          tally: &tally)
      }
      appendLiteral(CompiledTemplate.opener(item), of: template, into: &out, tally: &tally)
      appendField(
        item, of: template, scene: scene, bars: bars, seconds: seconds, into: &out, tally: &tally)
      appendLiteral(CompiledTemplate.closer(item), of: template, into: &out, tally: &tally)
      previous = item
    }
    appendLiteral(CompiledTemplate.suffix, of: template, into: &out, tally: &tally)
    renderedCells = tally.count
  }

  /// Appends item `item`'s field, and adds its cells.
  private mutating func appendField(
    _ item: Int, of template: CompiledTemplate, scene: borrowing Scene,
    bars: UnsafeBufferPointer<Float>, seconds: Double?, into out: inout ByteLine,
    tally: inout CellTally
  ) {
    let width = template.widths[item]
    switch template.fields[item] {
    case .glyph: appendGlyph(scene: scene, width: width, into: &out, tally: &tally)
    case .bars: appendBars(bars, width: width, into: &out, tally: &tally)
    case .bubbles: appendBubbles(scene: scene, width: width, into: &out, tally: &tally)
    case .state:
      // With no audio server the scene says stopped whatever the player does: say why.
      let state: StaticString = connected ? scene.state.staticTitle : "Disconnected"
      FieldText.appendFitted(state, width: width, into: &out)
      tally.add(.plain(width > 0 ? width : state.utf8CodeUnitCount))
    case .position: appendPosition(seconds, width: width, into: &out, tally: &tally)
    case .progress:
      let cells = width > 0 ? width : 10
      let length = position?.length ?? 0
      let fraction = seconds.map { length > 0 ? min(max($0 / length, 0), 1) : 0 } ?? 0
      FieldText.appendProgress(fraction, cells: cells, into: &out)
      tally.add(.plain(cells))
    case .lyric:
      let line = lyricLines.line(at: seconds)
      lyricLines.append(line, width: width, into: &out)
      tally.add(lyricLines.span(line, width: width))
    case .player, .title, .artist, .album, .length, .source, .volume, .playerIcon:
      if let marquee = template.marquees[item] {
        marquee.append(into: &out)
        tally.add(marquee.span)
      } else {
        out.append(template.values[item])
        tally.add(template.valueSpans[item])
      }
    }
  }

  /// The cells of the line's text templates with every field shown at the most it can take,
  /// the widest of them: what each line is padded to (``WidestLine/floor``), and what
  /// `pulsebar listen` pads its own lines to before it has seen a live one. `nil` when a
  /// template shows text of unbounded width (a `{title}` without a width).
  var knownWidth: Int? { fieldWidths.widest(of: templates[lineTemplates]) }

  /// Appends literal `literal` of `template` (prefix, separator, bracket), and adds its cells.
  @inline(__always)
  private func appendLiteral(
    _ literal: Int, of template: CompiledTemplate, into out: inout ByteLine,
    tally: inout CellTally
  ) {
    template.literals.withGlyph(literal) { out.append($0) }
    tally.add(template.literals.span(literal))
  }

  /// Pads the text from byte `start` of `line`, the template last rendered, to the widest line
  /// since the track changed or the template's known width, whichever is more
  /// (``WidestLine``), with the cells it added up.
  mutating func padToWidest(_ line: inout ByteLine, from start: Int) {
    widest.pad(&line, from: start, cells: renderedCells)
  }

  private func isPresent(_ field: Template.Field, value: ByteLine, seconds: Double?) -> Bool {
    switch field {
    case .glyph, .bars, .state: true
    case .bubbles: bubbleSlots > 0 && !glyphs.bubbles.isEmpty
    case .position: seconds != nil
    case .progress: seconds != nil && (position?.length ?? 0) > 0
    case .lyric: lyricLines.line(at: seconds) != nil
    case .player, .title, .artist, .album, .length, .source, .volume, .playerIcon: value.count > 0
    }
  }
}

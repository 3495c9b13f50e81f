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

  /// How scrolling fields move (`output.scroll_*`).
  private let scrollStyle: ScrollStyle
  /// `{player_icon}`'s icons.
  private let playerIcons: PlayerIcons

  /// A renderer for `texts` (template texts, already checked) in `dialect`.
  init(texts: [String], fallback: String, dialect: LineDialect, configuration: Configuration) {
    self.dialect = dialect
    widest = WidestLine(dialect)
    scrollStyle = ScrollStyle(configuration)
    templates = texts.map {
      CompiledTemplate(Template(validated: $0, fallback: fallback), dialect: dialect)
    }
    glyphs = TextGlyphs(configuration, encoding: dialect.glyphEncoding)
    colors = LineColors(configuration, dialect: dialect)
    bubbleSlots = max(0, configuration.bubbleMax)
    lyricLines = LyricLines(
      widths: Array(Set(templates.flatMap { $0.widths(of: .lyric) })), dialect: dialect.values)
    playerIcons = configuration.playerIcons
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
        var line = ByteLine()
        let width = template.widths[item]
        if template.scrolls[item] {
          template.updateMarquee(
            item, value: UntrustedText.sanitized(value ?? ""), style: scrollStyle,
            dialect: dialect.values)
        }
        let text =
          width > 0 ? TextCells.fit(UntrustedText.sanitized(value ?? ""), cells: width) : value
        // `{volume}` is ours ("40%", digits and a percent sign): no polybar tag can form in it.
        if template.fields[item] == .volume, let text {
          line.append(Array(text.utf8))
        } else if let text {
          UntrustedText.append(text, as: dialect.values, to: &line)
        }
        template.values[item] = line
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
  /// extrapolated to (`nil`: as last sampled).
  mutating func render(
    _ index: Int, into out: inout ByteLine, scene: borrowing Scene,
    bars: UnsafeBufferPointer<Float>, clock: Double?
  ) {
    colors.prepare(barCount: bars.count)
    // Scroll time runs while the line plays (advanced in place: no copy of the template).
    if let clock { templates[index].advanceMarquees(to: clock, playing: scene.state == .playing) }
    let template = templates[index]
    let seconds = position.map { $0.seconds(at: clock ?? $0.sampledAt) }
    template.literals.withGlyph(CompiledTemplate.prefix) { out.append($0) }
    var previous = -1
    for item in template.fields.indices {
      let field = template.fields[item]
      let width = template.widths[item]
      guard width > 0 || isPresent(field, value: template.values[item], seconds: seconds) else {
        continue
      }
      if previous >= 0 {
        template.literals.withGlyph(template.lightestSeparator(from: previous, to: item)) {
          out.append($0)
        }
      }
      template.literals.withGlyph(CompiledTemplate.opener(item)) { out.append($0) }
      switch field {
      case .glyph: appendGlyph(scene: scene, width: width, into: &out)
      case .bars: appendBars(bars, width: width, into: &out)
      case .bubbles: appendBubbles(scene: scene, width: width, into: &out)
      case .state:
        // With no audio server the scene says stopped whatever the player does: say why.
        Self.appendFitted(
          connected ? scene.state.staticTitle : "Disconnected", width: width, into: &out)
      case .position: appendPosition(seconds, width: width, into: &out)
      case .progress: appendProgress(seconds, cells: width > 0 ? width : 10, into: &out)
      case .lyric: lyricLines.append(lyricLines.line(at: seconds), width: width, into: &out)
      case .player, .title, .artist, .album, .length, .source, .volume, .playerIcon:
        if let marquee = template.marquees[item] {
          marquee.append(into: &out)
        } else {
          out.append(template.values[item])
        }
      }
      template.literals.withGlyph(CompiledTemplate.closer(item)) { out.append($0) }
      previous = item
    }
    template.literals.withGlyph(CompiledTemplate.suffix) { out.append($0) }
  }

  /// Pads the text from byte `start` of `line` to the widest line since the track changed
  /// (``WidestLine``).
  mutating func padToWidest(_ line: inout ByteLine, from start: Int) {
    widest.pad(&line, from: start)
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

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
  /// Connected to the audio server: `{state}` says `Disconnected` while not.
  private var connected = true
  /// The clock text of the position, before it is fitted.
  var scratch = ByteLine(capacity: 32)
  /// The widest line ``padToWidest(_:from:)`` saw since the track last changed (cells).
  private(set) var widestLine = 0
  /// The title, artist and album that line was drawn for.
  private var widestTrack: [String?] = []
  /// `{player_icon}`'s icons.
  private let playerIcons: PlayerIcons

  /// A renderer for `texts` (template texts, already checked) in `dialect`.
  init(texts: [String], fallback: String, dialect: LineDialect, configuration: Configuration) {
    self.dialect = dialect
    templates = texts.map {
      CompiledTemplate(Template(validated: $0, fallback: fallback), dialect: dialect)
    }
    glyphs = TextGlyphs(configuration, encoding: dialect.glyphEncoding)
    colors = LineColors(configuration, dialect: dialect)
    bubbleSlots = max(0, configuration.bubbleMax)
    playerIcons = configuration.playerIcons
  }

  /// True when template `index` shows a field drawn per frame other than the state (glyph,
  /// bars, bubbles, position, progress).
  func drawsPerFrame(_ index: Int) -> Bool {
    templates[index].shows(.glyph, .bars, .bubbles, .position, .progress)
  }

  /// True when a template shows the position or the progress (the engine then wakes for it).
  var showsPosition: Bool { templates.contains { $0.shows(.position, .progress) } }

  /// What padding and free cells are filled with: U+2007 FIGURE SPACE (one cell, not trimmed
  /// as whitespace by the bars).
  static let figureSpace: StaticString = "\u{2007}"

  // MARK: - Once per change

  /// Fits and escapes the track fields for a new player, track, source or connection.
  mutating func update(nowPlaying: NowPlaying?, source: String, connected: Bool) {
    position = nowPlaying?.playbackPosition
    self.connected = connected
    // A new track starts a new width; a player that lost its title (stopped) keeps the last.
    let track = [nowPlaying?.title, nowPlaying?.artist, nowPlaying?.album]
    if !(nowPlaying?.title ?? "").isEmpty && track != widestTrack {
      widestTrack = track
      widestLine = 0
    }
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
        if width > 0 {
          let fitted = TextCells.fit(UntrustedText.sanitized(value ?? ""), cells: width)
          UntrustedText.append(fitted, as: dialect.values, to: &line)
        } else if let value {
          UntrustedText.append(value, as: dialect.values, to: &line)
        }
        template.values[item] = line
      }
      templates[index] = template
    }
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
      case .player, .title, .artist, .album, .length, .source, .volume, .playerIcon:
        out.append(template.values[item])
      }
      template.literals.withGlyph(CompiledTemplate.closer(item)) { out.append($0) }
      previous = item
    }
    template.literals.withGlyph(CompiledTemplate.suffix) { out.append($0) }
  }

  /// Pads the text from byte `start` of `line` with figure spaces to the widest line drawn
  /// since the track changed, so a template keeps one width while fields come and go
  /// (playing, paused and stopped). Counts the visible cells in the line's markup.
  mutating func padToWidest(_ line: inout ByteLine, from start: Int) {
    let markup: VisibleCells.Markup =
      switch (dialect.inJSON, dialect.colors) {
      case (true, _): .pangoInJSON
      case (false, .none): .none
      case (false, .pango): .pango
      case (false, .polybar): .polybar
      case (false, .ansi): .ansi
      }
    let cells = VisibleCells.count(line.bytes[start...], markup: markup)
    guard cells < widestLine else {
      widestLine = cells
      return
    }
    for _ in cells..<widestLine { line.append(Self.figureSpace) }
  }

  private func isPresent(_ field: Template.Field, value: ByteLine, seconds: Double?) -> Bool {
    switch field {
    case .glyph, .bars, .state: true
    case .bubbles: bubbleSlots > 0 && !glyphs.bubbles.isEmpty
    case .position: seconds != nil
    case .progress: seconds != nil && (position?.length ?? 0) > 0
    case .player, .title, .artist, .album, .length, .source, .volume, .playerIcon: value.count > 0
    }
  }
}

import Testing

@testable import PulseBarCore

/// The renderer pads a template to the widest line since the track changed with the cells it
/// adds up run by run as it draws (``CellTally``, ``CellSpan``), not by reading the whole line
/// again. The padded line must be byte for byte the line padded by counting the whole rendered
/// line (``WholeLinePadding``, the reference: what the renderer did before), over templates ×
/// markups × states × hostile titles, lyric lines and glyphs.
@Suite struct FieldCellsTests {
  /// Templates with fields next to literals that could join them: combining marks, a ZWJ, a
  /// lone regional indicator, `%`, `{{`, markup of every dialect, no separators at all.
  static let templates = [
    Template.defaultText,
    "{glyph} {bars} {bubbles} {title:16} {position}/{length} {progress:8}",
    "{artist} – {title:24} {position}/{length}",
    "{title:12:scroll} | {lyric:20} {state} {lyric}",
    "<b>{title}</b> {bars:10} <span foreground='red'>{artist}</span>",
    "%{F#f00}{player}%{F-} {volume}% {album}{{x}}",
    "e\u{301}{title}\u{301}\u{200D}{artist}\u{FE0F}{album}\u{200D}",
    "{title}{artist}{album}{glyph}{bars}{state}{position}{lyric}",
    "🇫{title}🇷 {player_icon}{source}🇯",
    "& < > &amp; {title:5} 日本 {state:3} {position:4} {length:2} {progress}",
    "\u{1B}[1m{title:7:scroll}\u{1B}[0m {bubbles:3}{glyph:2}%",
  ]

  /// Titles that join, escape or break what is around them, then random strings of
  /// ``TextCellsPropertyTests/atoms``.
  static let titles: [String] =
    [
      "Song", "日本語のタイトル", "👨‍👩‍👧 family", "ends with a joiner 👨‍", "\u{301}starts with a mark",
      "e\u{301}\u{308}", "100%", "%", "{", "%{F#f00}x", "<b>&amp;", "& < > \" \\", "🇫🇷🇯", "🇫",
      "❤️ ❤ ☔\u{FE0E}", "\u{1100}\u{1161}\u{11A8}", "\u{1161}jamo", "\u{FE0F}vs16 first",
      "\u{200D}joiner first", "\u{1F3FD}modifier first", "\u{FEFF}\u{200B}", "a\u{7}b\u{1B}[31m",
      String(repeating: "長い", count: 40),
    ] + HostileTextTests.hostileTitles.prefix(11) + randomTitles(count: 24)

  static func randomTitles(count: Int) -> [String] {
    var random = SeededRandom(seed: 26)
    return (0..<count).map { _ in
      (0..<Int(random.next() % 12)).map { _ in
        TextCellsPropertyTests.atoms[
          Int(random.next() % UInt64(TextCellsPropertyTests.atoms.count))
        ].0
      }.joined()
    }
  }

  /// Every line dialect, and the bytes the renderer's line holds before the template.
  static let dialects: [(LineDialect, String)] = [
    (LineDialect(format: .text, markup: .none), ""),
    (LineDialect(format: .text, markup: .pango), ""),
    (LineDialect(format: .text, markup: .polybar), ""),
    (LineDialect(format: .text, markup: .ansi), ""),
    (LineDialect(format: .waybar, markup: .none), #"{"text":""#),
    (LineDialect(format: .waybar, markup: .pango), #"{"text":""#),
  ]

  /// Colours everywhere, and glyphs that could join what is around them when `hostile`.
  static func configuration(hostile: Bool) -> Configuration {
    var configuration = Configuration()
    configuration.bars = 12
    configuration.barColors = [
      RGBColor(red: 255, green: 0, blue: 0), RGBColor(red: 0, green: 255, blue: 0),
      RGBColor(red: 0, green: 0, blue: 255),
    ]
    configuration.playingColor = RGBColor(red: 1, green: 2, blue: 3)
    configuration.pausedColor = RGBColor(red: 4, green: 5, blue: 6)
    configuration.bubbleColor = RGBColor(red: 7, green: 8, blue: 9)
    configuration.bubbleMax = 4
    if hostile {
      configuration.barGlyphs = ["\u{301}", "a", "日", "🇫", "%", "&", "👨‍", "▇"]
      configuration.bubbleGlyphs = ["\u{200D}", "<", "❤️"]
      configuration.morphGlyphs = ["e\u{301}", "\u{FE0F}", "%{"]
      configuration.scrollSeparator = "\u{301} % "
    }
    return configuration
  }

  /// A scene that has been in each state a second (bubbles risen while playing).
  static let scenes: [Scene] = {
    var scene = Scene(configuration: configuration(hostile: false))
    var scenes: [Scene] = []
    var time = 0.0
    for (status, activity) in [
      (PlayerStatus.playing, StreamActivity.running), (.paused, .corked), (.stopped, .none),
    ] {
      for frame in 0..<60 {
        time += 1.0 / 60
        scene.advance(
          to: time, activity: activity, signalPresent: activity == .running,
          onset: frame % 7 == 0, player: status)
      }
      scenes.append(scene)
    }
    return scenes
  }()

  /// The track for `title`: its lyric's lines are hostile titles too.
  static func nowPlaying(_ title: String, _ status: PlayerStatus, index: Int) -> NowPlaying {
    let lines = (0..<4).map {
      SyncedLyric.Line(milliseconds: Int64($0) * 1000, text: titles[(index + $0) % titles.count])
    }
    return NowPlaying(
      player: "mpv%", status: status, title: title, artist: titles[(index + 3) % titles.count],
      album: index % 2 == 0 ? "Ålbum" : nil, length: 215, position: 1_000_000, positionTime: 0,
      lyric: SyncedLyric(lines: lines), volume: 0.4)
  }

  @Test(arguments: 0..<12)
  func paddedLinesAreTheWholeLineCountsPadding(case number: Int) {
    let (dialect, start) = Self.dialects[number % Self.dialects.count]
    let configuration = Self.configuration(hostile: number >= Self.dialects.count)
    var random = SeededRandom(seed: UInt64(number))
    for template in Self.templates {
      var renderer = TemplateRenderer(
        texts: [template, template, template], fallback: Template.defaultText, dialect: dialect,
        configuration: configuration)
      var reference = WholeLinePadding(markup: dialect.markup)
      var clock = 0.0
      for (index, title) in Self.titles.enumerated() {
        for (state, status) in [PlayerStatus.playing, .paused, .stopped].enumerated() {
          let nowPlaying =
            status == .stopped
            ? NowPlaying(player: "mpv", status: .stopped)
            : Self.nowPlaying(title, status, index: index)
          renderer.update(nowPlaying: nowPlaying, source: "sink <&>", connected: index % 5 != 4)
          reference.trackChanged(to: nowPlaying)
          reference.floor = renderer.knownWidth ?? 0
          for _ in 0..<3 {
            clock += 0.7
            let bars = (0..<configuration.bars).map { _ in Float(random.next() % 1100) / 1000 }
            var line = ByteLine()
            line.append(Array(start.utf8))
            bars.withUnsafeBufferPointer {
              renderer.render(
                state, into: &line, scene: Self.scenes[state], bars: $0, clock: clock)
            }
            let rendered = Array(line.bytes)
            if let cells = renderer.renderedCells {
              #expect(
                cells
                  == VisibleCells.count(
                    rendered.dropFirst(start.utf8.count), markup: dialect.markup))
            }
            renderer.padToWidest(&line, from: start.utf8.count)
            // Byte for byte (`String` equality would take canonically equivalent text as equal).
            let identical = Array(line.bytes) == reference.pad(rendered, from: start.utf8.count)
            #expect(
              identical,
              "\(dialect.markup) \(template.debugDescription) \(title.debugDescription) \(status)")
          }
        }
      }
    }
  }

  /// Ordinary lines (the scene bench's template, scrolling, lyric and markup templates, titles
  /// of CJK, emoji, flags, `&`) are added up, never counted whole: were ``renderedCells``
  /// always `nil`, the test above would pass and every frame would still read the markup. (A
  /// `%` in a scrolling field is counted whole in text lines: ``Marquee`` writes it as `% `.)
  @Test func ordinaryLinesAreAddedUp() {
    for (dialect, start) in Self.dialects {
      for template in Self.templates[1...4] {
        var renderer = TemplateRenderer(
          texts: [template, template, template], fallback: Template.defaultText,
          dialect: dialect, configuration: Self.configuration(hostile: false))
        for (index, title) in ["Song", "日本語のタイトル", "👨‍👩‍👧 family", "🇫🇷 & <b>", "½ · –"].enumerated() {
          for state in 0..<3 {
            var nowPlaying = Self.nowPlaying(title, [.playing, .paused, .stopped][state], index: 0)
            nowPlaying.artist = "Ünïcødé & Band \(index)"
            nowPlaying.lyric = SyncedLyric(lines: [.init(milliseconds: 0, text: title)])
            renderer.update(nowPlaying: nowPlaying, source: "sink", connected: true)
            var line = ByteLine()
            line.append(Array(start.utf8))
            let bars = [Float](repeating: 0.5, count: 12)
            bars.withUnsafeBufferPointer {
              renderer.render(state, into: &line, scene: Self.scenes[state], bars: $0, clock: 9)
            }
            #expect(renderer.renderedCells != nil, "\(dialect.markup) \(template) \(title)")
          }
        }
      }
    }
  }
}

/// The reference: pads to the widest line since the track changed by counting the cells of the
/// whole rendered line, as the renderer did before it added them up as it drew.
struct WholeLinePadding {
  let markup: VisibleCells.Markup
  private var widest = 0
  private var track: [String?] = []
  /// The template's known width (``TemplateRenderer/knownWidth``): no line is narrower.
  var floor = 0

  init(markup: VisibleCells.Markup) { self.markup = markup }

  /// A new non-empty title (or artist, album) starts a new width.
  mutating func trackChanged(to nowPlaying: NowPlaying?) {
    let track = [nowPlaying?.title, nowPlaying?.artist, nowPlaying?.album]
    guard !(nowPlaying?.title ?? "").isEmpty && track != self.track else { return }
    self.track = track
    widest = 0
  }

  /// `line` with its text from byte `start` padded with figure spaces to the widest.
  mutating func pad(_ line: [UInt8], from start: Int) -> [UInt8] {
    let count = VisibleCells.count(line[start...], markup: markup)
    guard count < max(widest, floor) else {
      widest = count
      return line
    }
    return line + Array(String(repeating: "\u{2007}", count: max(widest, floor) - count).utf8)
  }
}

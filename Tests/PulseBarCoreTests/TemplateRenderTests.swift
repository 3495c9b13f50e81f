import Glibc
import Testing

@testable import PulseBarCore

/// Templates, colour and hiding through the renderers, byte for byte.
@Suite struct TemplateRenderTests {
  static let play = MorphGlyph.defaultFrames.last!
  static let figure = "\u{2007}"
  static let song = NowPlaying(
    player: "mpv", status: .playing, title: "Song Title", artist: "Band", album: "LP",
    length: 200, position: 61_500_000, rate: 1, positionTime: 1000)

  /// One frame of `format` (``RenderTests/line``) with bubbles off and ``song`` playing at
  /// monotonic `clock`.
  static func render(
    _ format: OutputFormat, bars: [Float] = [0, 0.3, 0.6, 1], activity: StreamActivity = .running,
    nowPlaying: NowPlaying? = song, clock: Double? = 1000, hidden: Bool = false,
    configure: (inout Configuration) -> Void = { _ in }
  ) -> String? {
    RenderTests.line(
      format, bars: bars, activity: activity, nowPlaying: nowPlaying, clock: clock, hidden: hidden
    ) {
      $0.bubbleMax = 0
      configure(&$0)
    }
  }

  @Test(
    arguments: [
      ("{glyph}|{bars}", "\(play)|▁▃▅█"),
      ("{state} {player}: {artist} — {title} [{album}]", "Playing mpv: Band — Song Title [LP]"),
      ("{position}/{length}", "1:01/3:20"),
      ("{progress}", "███░░░░░░░"),
      ("{progress:4}", "█▏░░"),
      ("{source}", "sink \"a\".monitor"),
      ("{title:6}|{state:4}|{bars:2}|{glyph:2}", "Song …|Pla…|▁▃|\(play)\(figure)"),
      ("{title:12}|", "Song Title\(figure)\(figure)|"),
      ("{{{title}}}", "{Song Title}"),
    ] as [(String, String)])
  func textFields(template: String, expected: String) {
    let line = Self.render(.text) { $0.text = template }
    #expect(line == expected + "\n")
  }

  /// Missing values drop with their separator; with a width they pad.
  @Test func missingValuesDropOrPad() {
    let bare = NowPlaying(player: "mpv", status: .playing)
    #expect(
      Self.render(.text, nowPlaying: bare) { $0.text = "{glyph} {artist} — {title} ({player})" }
        == "\(Self.play) (mpv)\n")
    // They drop, and the line keeps the width it has with them all: 1 + 1 + 4 + 1 + 4 + 1 + 10.
    #expect(
      Self.render(.text, nowPlaying: nil) { $0.text = "{glyph} {position}/{length} {progress}" }
        == "\(Self.play)" + String(repeating: Self.figure, count: 21) + "\n")
    #expect(
      Self.render(.text, nowPlaying: nil) { $0.text = "{glyph} {title:3} {position:4}" }
        == "\(Self.play) \(Self.figure)\(Self.figure)\(Self.figure) "
        + String(repeating: Self.figure, count: 4) + "\n")
  }

  /// Position extrapolates with the clock: 1:01.5 at 1000 s is 1:03 at 1001.5 s.
  @Test func positionMovesWithTheClock() {
    #expect(Self.render(.text, clock: 1001.5) { $0.text = "{position}" } == "1:03\n")
    #expect(Self.render(.text, clock: nil) { $0.text = "{position}" } == "1:01\n")
    let json = Self.render(.json, clock: 1002)
    #expect(json?.contains(#""length":200.000,"position":63.500,"morph""#) == true, "\(json!)")
  }

  @Test func perStateTemplatesOverrideText() {
    let configure: (inout Configuration) -> Void = {
      $0.text = "{glyph} {bars}"
      $0.textPaused = "paused {title}"
      $0.textStopped = "stopped"
    }
    #expect(Self.render(.text, configure: configure) == "\(Self.play) ▁▃▅█\n")
    #expect(
      Self.render(.text, activity: .none, nowPlaying: nil, configure: configure) == "stopped\n")
    var paused = Self.song
    paused.status = .paused
    #expect(
      Self.render(.text, activity: .corked, nowPlaying: paused, configure: configure)
        == "paused Song Title\n")
  }

  @Test func waybarTextAndTooltipUseTemplates() throws {
    let line = try #require(
      Self.render(.waybar) {
        $0.text = "{glyph} {title:5}"
        $0.tooltip = "<b>{title}</b> {position}"
      })
    #expect(line.hasPrefix(#"{"text":"\#(Self.play) Song…","alt":"playing""#), "\(line)")
    #expect(line.contains(#""tooltip":"<b>Song Title</b> 1:01""#), "\(line)")
  }

  /// A template whose variable fields all have widths keeps one width in every state, with a
  /// player or without, whatever its title.
  @Test func widthsHoldInEveryState() {
    var widths = Set<Int>()
    var long = Self.song
    long.title = "A much longer title than ten cells 日本語"
    for activity in [StreamActivity.running, .corked, .none] {
      for player in [Self.song, long, nil] {
        let line = Self.render(.text, activity: activity, nowPlaying: player) {
          $0.text = "{glyph} {bars} {state:7} {title:10} ({artist:4}) {position:5} {progress:4}"
        }
        widths.insert(TextCells.width(of: String(line?.dropLast() ?? "")))
      }
    }
    #expect(widths == [1 + 1 + 4 + 1 + 7 + 1 + 10 + 1 + 6 + 1 + 5 + 1 + 4])
  }

  /// The waybar tooltip is rendered again when the track, the connection or the state changes.
  @Test func waybarTooltipFollowsChanges() throws {
    var configuration = Configuration()
    configuration.tooltip = "{state} {title} {source}"
    let renderer = FrameRenderer(format: .waybar, configuration: configuration)
    var scene = Scene(configuration: configuration)
    func tooltip(connected: Bool = true) throws -> String {
      let info = FrameInfo(time: 0.1, source: "sink", connected: connected)
      let written = [Float(0.5)].withUnsafeBufferPointer {
        renderer.render(scene: scene, bars: $0, info: info)
      }
      try #require(written)
      let object = try HostileTextTests.jsonObject(
        String(decoding: renderer.line.bytes, as: UTF8.self))
      return try #require(object["tooltip"] as? String)
    }
    renderer.nowPlaying = Self.song
    #expect(try tooltip() == "Stopped Song Title sink")
    renderer.nowPlaying = NowPlaying(player: "mpv", status: .playing, title: "Next")
    #expect(try tooltip() == "Stopped Next sink")
    #expect(try tooltip(connected: false) == "Disconnected Next audio server unreachable")
    scene.advance(to: 0.1, activity: .running, signalPresent: true, onset: false)
    #expect(try tooltip(connected: false) == "Disconnected Next audio server unreachable")
    #expect(try tooltip() == "Playing Next sink")
  }

  // MARK: - Hiding

  @Test func hiddenLinesAreEmptyWithClassHidden() {
    #expect(Self.render(.text, hidden: true) == "\n")
    let waybar = Self.render(.waybar, hidden: true)
    #expect(
      waybar?.hasPrefix(#"{"text":"","alt":"playing","class":["playing","hidden"],"tooltip":"#)
        == true, "\(waybar ?? "nil")")
    #expect(waybar?.hasSuffix(#""percentage":0}"# + "\n") == true)
  }

  /// The pipeline hides the text once stopped for `hide_after` s, writes the hidden line once,
  /// keeps ticking until it has hidden, and shows it again on sound.
  @Test func pipelineHidesAfterTheDelayAndWritesOnce() throws {
    var configuration = Configuration()
    configuration.hideWhen = .stopped
    configuration.hideAfter = 1
    configuration.stateDebounce = 0
    let pipeline = FramePipeline(configuration: configuration, sampleRate: 44100)
    let consumer = try pipeline.addConsumer(ConsumerKey(format: .text, bars: 8))
    let info = FrameInfo(time: 0, source: "s", connected: true)
    var written: [String] = []
    for _ in 0..<120 {
      pipeline.advanceWithoutAudio(by: 1.0 / 60, activity: .none)
      pipeline.renderConsumers(info: info)
      if let line = pipeline.changedLine(consumer) {
        written.append(String(decoding: line.bytes, as: UTF8.self))
      }
      if pipeline.visibility.isHidden { break }
      #expect(pipeline.isAnimating, "the engine keeps ticking until the line hides")
    }
    #expect(pipeline.visibility.isHidden)
    #expect(written.last == "\n" && written.dropLast().allSatisfy { $0 != "\n" })
    #expect(!pipeline.isAnimating)
    pipeline.advanceWithoutAudio(by: 1.0 / 60, activity: .none)
    pipeline.renderConsumers(info: info)
    #expect(pipeline.changedLine(consumer) == nil, "the hidden line is written once")
    let tone: [Float] = (0..<(44100 / 60)).map { index in Float(sin(Double(index) * 0.1) / 2) }
    tone.withUnsafeBufferPointer { pipeline.advance(audio: $0, activity: .running) }
    pipeline.renderConsumers(info: info)
    #expect(!pipeline.visibility.isHidden)
    let shown = try #require(pipeline.changedLine(consumer))
    #expect(shown.count > 1, "shown again on the first frame with sound")
  }

  @Test func positionWakesTheEngineOnlyWhenShown() throws {
    let pipeline = FramePipeline(configuration: Configuration(), sampleRate: 44100)
    try pipeline.addConsumer(ConsumerKey(format: .text, bars: 8))
    pipeline.nowPlaying = Self.song
    #expect(pipeline.nextPositionChange(after: 1000) == nil, "the default text has no position")
    var configuration = Configuration()
    configuration.text = "{glyph} {position}"
    let showing = FramePipeline(configuration: configuration, sampleRate: 44100)
    try showing.addConsumer(ConsumerKey(format: .text, bars: 8))
    showing.nowPlaying = Self.song
    #expect(showing.nextPositionChange(after: 1000) == 1000.5)
    var paused = Self.song
    paused.status = .paused
    showing.nowPlaying = paused
    #expect(showing.nextPositionChange(after: 1000) == nil)
  }
}

import Testing

@testable import PulseBarCore

/// `{lyric}` and json's `lyric`: the synced lyric's line at the player's position, and the
/// engine's wake-ups for it, with exact times.
@Suite struct LyricRenderTests {
  static let play = MorphGlyph.defaultFrames.last!
  static let figure = "\u{2007}"
  /// Lines at 60 s, 62 s, a blank at 64 s, 66 s.
  static let lyric = LRCParser.parse(
    "[ti:Song Title]\n[01:00.00]first\n[01:02.00]second <b>&\n[01:04.00]\n[01:06.00]third")!
  /// 61.5 s into the track at monotonic 1000 s.
  static func song(
    _ status: PlayerStatus = .playing, rate: Double = 1, lyric: SyncedLyric? = lyric
  ) -> NowPlaying {
    NowPlaying(
      player: "mpv", status: status, title: "Song Title", length: 200, position: 61_500_000,
      rate: rate, positionTime: 1000, lyric: lyric)
  }

  static func render(
    _ format: OutputFormat, _ template: String = "{glyph} {lyric}", clock: Double,
    nowPlaying: NowPlaying = song()
  ) -> String? {
    TemplateRenderTests.render(format, nowPlaying: nowPlaying, clock: clock) {
      $0.text = template
      $0.tooltip = template
    }
  }

  @Test(
    arguments: [
      (1000, "first"), (1000.499, "first"), (1000.5, "second <b>&"), (1002.499, "second <b>&"),
      (1004.5, "third"), (1100, "third"),
    ] as [(Double, String)])
  func theLineFollowsThePosition(clock: Double, expected: String) {
    #expect(Self.render(.text, clock: clock) == "\(Self.play) \(expected)\n")
  }

  @Test func noLineDropsTheFieldWithItsBrackets() {
    let template = "{title} ({lyric})"
    #expect(Self.render(.text, template, clock: 1002.5) == "Song Title\n", "a blank line")
    #expect(
      Self.render(.text, template, clock: 1000, nowPlaying: Self.song(lyric: nil))
        == "Song Title\n", "no lyric")
    var early = Self.song()
    early.position = 10_000_000
    #expect(Self.render(.text, template, clock: 1000, nowPlaying: early) == "Song Title\n")
    var unknown = Self.song()
    unknown.position = nil
    #expect(Self.render(.text, template, clock: 1000, nowPlaying: unknown) == "Song Title\n")
  }

  @Test func pauseRateAndSeek() {
    #expect(
      Self.render(.text, "{lyric}", clock: 1100, nowPlaying: Self.song(.paused)) == "first\n",
      "frozen while paused")
    #expect(
      Self.render(.text, clock: 1000.25, nowPlaying: Self.song(rate: 2))
        == "\(Self.play) second <b>&\n")
    var seeked = Self.song()
    seeked.position = 66_000_000
    #expect(Self.render(.text, clock: 1000, nowPlaying: seeked) == "\(Self.play) third\n")
  }

  @Test func aWidthFitsOrPads() {
    #expect(Self.render(.text, "{lyric:4}|", clock: 1000.5) == "sec…|\n")
    #expect(Self.render(.text, "{lyric:7}|", clock: 1000) == "first\(Self.figure)\(Self.figure)|\n")
    #expect(
      Self.render(.text, "{lyric:3}|", clock: 1002.5)
        == String(repeating: Self.figure, count: 3) + "|\n")
  }

  @Test func escapedForEachDialect() throws {
    let waybar = try #require(Self.render(.waybar, "{lyric}", clock: 1000.5))
    #expect(waybar.contains(#""text":"second &lt;b&gt;&amp;""#), "\(waybar)")
    #expect(waybar.contains(#""tooltip":"second &lt;b&gt;&amp;""#), "\(waybar)")
    let json = try #require(Self.render(.json, clock: 1000.5))
    #expect(json.contains(#""position":62.000,"lyric":"second <b>&","morph""#), "\(json)")
    let none = try #require(Self.render(.json, clock: 1002.5))
    #expect(!none.contains("lyric"), "\(none)")
  }

  static func pipeline(
    _ template: String, format: OutputFormat = .text, fps: Int = 60, nowPlaying: NowPlaying = song()
  ) throws -> FramePipeline {
    var configuration = Configuration()
    configuration.text = template
    configuration.fps = fps
    let pipeline = FramePipeline(configuration: configuration, sampleRate: 44100)
    try pipeline.addConsumer(ConsumerKey(format: format, bars: 8))
    pipeline.nowPlaying = nowPlaying
    return pipeline
  }

  @Test func theEngineWakesWhenTheLineChangesWhilePlayingOnly() throws {
    #expect(try Self.pipeline("{glyph} {lyric}").nextPositionChange(after: 1000) == 1000.5)
    #expect(try Self.pipeline("{lyric}").nextPositionChange(after: 1001) == 1002.5)
    #expect(try Self.pipeline("{lyric}").nextPositionChange(after: 1004.5) == nil, "last line")
    #expect(
      try Self.pipeline("{lyric}", nowPlaying: Self.song(rate: 2)).nextPositionChange(after: 1000)
        == 1000.25)
    #expect(
      try Self.pipeline("{lyric}", nowPlaying: Self.song(.paused)).nextPositionChange(after: 1000)
        == nil)
    #expect(
      try Self.pipeline("{lyric}", nowPlaying: Self.song(.stopped)).nextPositionChange(after: 1000)
        == nil)
    #expect(
      try Self.pipeline("{lyric}", nowPlaying: Self.song(lyric: nil)).nextPositionChange(
        after: 1000) == nil)
    #expect(try Self.pipeline("{glyph} {bars}").nextPositionChange(after: 1000) == nil)
    #expect(
      try Self.pipeline("{glyph}", format: .json).nextPositionChange(after: 1000) == 1000.5,
      "json always shows the lyric")
  }

  @Test func linesCloserThanAFrameWakeOncePerFrame() throws {
    let dense = LRCParser.parse(
      (0..<100).map { "[01:01.\(500 + $0)]w\($0)" }.joined(separator: "\n"))
    let pipeline = try Self.pipeline("{lyric}", fps: 20, nowPlaying: Self.song(lyric: dense))
    #expect(pipeline.nextPositionChange(after: 1000) == 1000.05)
  }
}

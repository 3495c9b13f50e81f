import Testing

@testable import PulseBarCore

/// A template whose fields all have a width (given, or implied: `{volume}` 4 cells,
/// `{position}` and `{length}` the widest clock, `{state}` the longest word, `{player_icon}`
/// the widest icon, `{progress}` its cells) has a width known before any frame, and every line
/// is that wide from the first frame, whatever the player says or leaves out.
@Suite struct KnownWidthTests {
  static let template =
    "{glyph} {bars} {bubbles} {state} {player_icon} {volume} {position}/{length} {progress:6} {title:12}"

  static func renderer(_ template: String = template) -> FrameRenderer {
    var configuration = Configuration()
    configuration.text = template
    configuration.bars = 4
    return FrameRenderer(format: .text, configuration: configuration)
  }

  @Test func theWidthFollowsFromTheTemplate() throws {
    // 1 + 1 + 4 + 1 + 6 + 1 + 12 + 1 + 1 + 1 + 4 + 1 + 4 + 1 + 4 + 1 + 6 + 1 + 12
    #expect(Self.renderer().knownWidth == 63)
    #expect(Self.renderer("{glyph} {bars}").knownWidth == 6)
    for unbounded in ["{title}", "{artist}", "{album}", "{lyric}", "{player}", "{source}"] {
      #expect(Self.renderer("{glyph} \(unbounded)").knownWidth == nil, "\(unbounded)")
      #expect(Self.renderer("{glyph} \(unbounded.dropLast()):24}").knownWidth == 26)
    }
  }

  /// Every state and every player, with and without `Volume`, length and title: one width,
  /// from the first frame on.
  @Test func everyLineIsTheKnownWidthFromTheFirstFrame() throws {
    var configuration = Configuration()
    configuration.text = Self.template
    configuration.bars = 4
    let players: [NowPlaying?] = [
      nil,
      NowPlaying(player: "mpv", status: .playing, title: "Song", length: 200, volume: 0.4),
      NowPlaying(player: "bare", status: .playing),
      NowPlaying(player: "spotify", status: .paused, title: "東京の夜", volume: 1),
      NowPlaying(player: "vlc", status: .stopped, volume: 0.05),
      NowPlaying(player: "mpv", status: .playing, title: "Long", length: 359_999, volume: 10),
    ]
    let expected = try #require(
      FrameRenderer(format: .text, configuration: configuration).knownWidth)
    for (index, player) in players.enumerated() {
      let renderer = FrameRenderer(format: .text, configuration: configuration)
      for activity in [StreamActivity.running, .none] {
        var scene = Scene(configuration: configuration)
        scene.advance(
          to: 0.1, activity: activity, signalPresent: activity == .running, onset: false,
          player: player?.status)
        renderer.nowPlaying = player
        let bars: [Float] = [0.1, 0.5, 0.9, 1]
        let written = bars.withUnsafeBufferPointer {
          renderer.render(
            scene: scene, bars: $0, info: FrameInfo(time: 0.1, source: "s", connected: index != 4))
        }
        #expect(written || index > 0)
        let cells = VisibleCells.count(renderer.line.bytes.dropLast(), markup: .none)
        // The 99-hour track's clock is 8 cells: its line is wider, and stays so.
        #expect(cells == (index == 5 ? expected + 8 : expected), "player \(index) \(activity)")
      }
    }
  }

  /// `{position}` and `{length}` are as wide as the longest track's clock, and keep it across
  /// a change to a shorter one.
  @Test func theClockWidthGrowsAndIsKept() throws {
    var configuration = Configuration()
    configuration.text = "{position}/{length}"
    let renderer = FrameRenderer(format: .text, configuration: configuration)
    #expect(renderer.knownWidth == 9)
    renderer.nowPlaying = NowPlaying(player: "a", status: .playing, title: "Hour", length: 4000)
    #expect(renderer.knownWidth == 15)
    renderer.nowPlaying = NowPlaying(player: "a", status: .playing, title: "Short", length: 30)
    #expect(renderer.knownWidth == 15)
  }
}

/// `check-config` (and the daemon's start) says once, with `FILE:LINE` and the fix, that a
/// text template's width is not known beforehand; a tooltip, a bounded template and a field
/// with a width say nothing.
@Suite struct UnboundedWidthWarningTests {
  @Test func aFieldWithoutAWidthIsOneWarningWithTheFix() throws {
    let text = "[output]\ntext = {glyph} {bars} {title} {artist}\ntooltip = {title}\n"
    let warnings = try ConfigParser.read(text, file: "cfg").warnings.map(\.description)
    #expect(warnings.count == 1, "\(warnings)")
    let warning = try #require(warnings.first)
    #expect(warning.hasPrefix("cfg:2: warning: output.text shows {title} without a width"))
    #expect(warning.contains("{title:24}"))
    for quiet in [
      "[output]\ntext = {glyph} {bars} {title:24} {volume} {state}\n",
      "[output]\ntooltip = {title} {artist}\n",
    ] {
      #expect(try ConfigParser.read(quiet, file: "cfg").warnings.isEmpty, "\(quiet)")
    }
    let lyric = try ConfigParser.read("[output]\ntext_playing = {lyric}\n", file: "c").warnings
    #expect(
      lyric.map(\.description) == [
        "c:2: warning: output.text_playing shows {lyric} without a width: the module is as wide as each value, known only once a line is drawn (a bar started before the daemon is narrow); give it one, e.g. {lyric:24}"
      ])
  }
}

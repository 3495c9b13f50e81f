import Testing

@testable import PulseBarCore

/// A template keeps one width across playing, paused and stopped: a line whose fields lost
/// their values is padded with figure spaces to the widest line drawn since the track changed
/// (it was 608 px playing and 336 px stopped in Waybar), in every format and markup.
@Suite struct SteadyWidthTests {
  static let template = "{glyph} {bars} {artist} – {title:24} {position}/{length}"

  /// The visible cells of each line one renderer draws for: playing, paused, then stopped with
  /// the player's metadata gone.
  static func widths(format: OutputFormat, markup: Markup, title: String = "日本語 👨‍👩‍👧 Song")
    -> [Int]
  {
    var configuration = Configuration()
    configuration.text = template
    configuration.markup = markup
    configuration.barColors = markup == .none ? [] : [RGBColor(red: 255, green: 0, blue: 0)]
    let renderer = FrameRenderer(format: format, configuration: configuration)
    var scene = Scene(configuration: configuration)
    let playing = NowPlaying(
      player: "mpv", status: .playing, title: title, artist: "Ünïcødé & Band", length: 215,
      position: 75_000_000)
    var paused = playing
    paused.status = .paused
    let stopped = NowPlaying(player: "mpv", status: .stopped)
    var widths: [Int] = []
    var time = 0.0
    for (nowPlaying, activity) in [
      (playing, StreamActivity.running), (paused, .corked), (stopped, .none),
    ] {
      renderer.nowPlaying = nowPlaying
      for _ in 0..<60 {
        time += 1.0 / 60
        scene.advance(
          to: time, activity: activity, signalPresent: activity == .running, onset: false,
          player: nowPlaying.status)
      }
      let bars = [Float](repeating: 0.5, count: configuration.bars)
      let written = bars.withUnsafeBufferPointer {
        renderer.render(
          scene: scene, bars: $0,
          info: FrameInfo(time: time, source: "out", connected: true, clock: time))
      }
      #expect(written)
      var line = Array(renderer.line.bytes.dropLast())
      if format == .waybar {
        let start = Array(#"{"text":""#.utf8).count
        let end = line.firstRange(of: Array(#"","alt""#.utf8))!.lowerBound
        line = Array(line[start..<end])
      }
      let kind: VisibleCells.Markup =
        format == .waybar
        ? .pangoInJSON
        : [.none: .none, .pango: .pango, .polybar: .polybar, .ansi: .ansi][markup]!
      widths.append(VisibleCells.count(line, markup: kind))
    }
    return widths
  }

  @Test(arguments: [Markup.none, .pango, .polybar, .ansi])
  func textKeepsOneWidth(markup: Markup) {
    let widths = Self.widths(format: .text, markup: markup)
    #expect(Set(widths).count == 1, "\(markup): \(widths)")
  }

  /// A fixed-width field whose value ends in `%`, holds a `%{` or starts with `{` stays within
  /// its width once escaped: the space that keeps polybar from opening a tag is counted, and
  /// the value fitted again with a cell less (it drew 9 cells in an 8-cell field).
  @Test(arguments: [Markup.none, .pango, .polybar])
  func escapedValuesStayWithinTheirWidth(markup: Markup) {
    for title in ["abcdefg%", "{abcdefg", "abcdef%{", "%%%%%%%%", "{{{{{{{{", "a%{b%{c%{"] {
      var configuration = Configuration()
      configuration.text = "{title:8}|"
      configuration.markup = markup
      let renderer = FrameRenderer(format: .text, configuration: configuration)
      renderer.nowPlaying = NowPlaying(player: "mpv", status: .playing, title: title)
      let bars = [Float](repeating: 0.5, count: configuration.bars)
      _ = bars.withUnsafeBufferPointer {
        renderer.render(
          scene: Scene(configuration: configuration), bars: $0,
          info: FrameInfo(time: 1, source: "out", connected: true, clock: 1))
      }
      let line = Array(renderer.line.bytes.dropLast())
      let kind: VisibleCells.Markup = [.none: .none, .pango: .pango, .polybar: .polybar][markup]!
      #expect(
        VisibleCells.count(line, markup: kind) <= 9,
        "\(markup) \(title): '\(String(decoding: line, as: UTF8.self))'")
    }
  }

  @Test func waybarKeepsOneWidth() {
    let widths = Self.widths(format: .waybar, markup: .pango)
    #expect(Set(widths).count == 1, "\(widths)")
  }
}

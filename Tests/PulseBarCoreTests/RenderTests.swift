import Testing

@testable import PulseBarCore

@Suite struct RenderTests {
  /// Renders one frame of a scene advanced with `activity`, with `bars` as the live heights.
  static func line(
    _ format: OutputFormat, bars: [Float], activity: StreamActivity = .running,
    connected: Bool = true, nowPlaying: NowPlaying? = nil, clock: Double? = nil,
    hidden: Bool = false, configure: (inout Configuration) -> Void = { _ in }
  ) -> String? {
    var configuration = Configuration()
    configure(&configuration)
    var scene = Scene(configuration: configuration)
    for step in 1...30 {
      scene.advance(
        to: Double(step) / 60, activity: activity, signalPresent: activity == .running,
        onset: false, player: nowPlaying?.status)
    }
    let renderer = FrameRenderer(format: format, configuration: configuration)
    renderer.mirrored = configuration.channels == .stereo
    renderer.nowPlaying = nowPlaying
    var display = [Float](repeating: 0, count: bars.count)
    bars.withUnsafeBufferPointer { live in
      display.withUnsafeMutableBufferPointer { scene.composeBars(live: live, into: $0) }
    }
    let written = display.withUnsafeBufferPointer {
      renderer.render(
        scene: scene, bars: $0,
        info: FrameInfo(
          time: 0.5, source: "sink \"a\".monitor", connected: connected, clock: clock,
          hidden: hidden))
    }
    return written ? String(decoding: renderer.line.bytes, as: UTF8.self) : nil
  }

  @Test func textIsGlyphThenBars() throws {
    let line = try #require(Self.line(.text, bars: [0, 0.3, 0.6, 1]))
    // The bubble area: a space, then `bubbles.max` (6) cells of figure spaces when none live.
    let padding = String(repeating: "\u{2007}", count: 6)
    #expect(line == "\(MorphGlyph.defaultFrames.last!) ▁▃▅█ \(padding)\n")
    let bare = Self.line(.text, bars: [0, 0.3, 0.6, 1]) { $0.bubbleMax = 0 }
    #expect(bare == "\(MorphGlyph.defaultFrames.last!) ▁▃▅█\n", "bubbles off: no bubble area")
  }

  /// The play/pause glyphs are configurable (`output.morph_glyphs`), for a font that has the
  /// media symbols DejaVu lacks; any number of frames from pause to play.
  @Test func morphGlyphsAreConfigurable() throws {
    let playing = Self.line(.text, bars: [1]) {
      $0.morphGlyphs = ["⏸", "⏯", "⏵"]
      $0.bubbleMax = 0
    }
    #expect(playing == "⏵ █\n")
    let stopped = Self.line(.text, bars: [1], activity: .none) {
      $0.morphGlyphs = ["⏸", "⏵"]
      $0.bubbleMax = 0
    }
    #expect(stopped?.hasPrefix("⏸ ") == true, "\(stopped ?? "nil")")
    var configuration = Configuration()
    try ConfigKeys.setting(section: "output", key: "morph_glyphs")!.apply("⏸ ⏯ ⏵", &configuration)
    #expect(configuration.morphGlyphs == ["⏸", "⏯", "⏵"])
  }

  @Test func rawIsCavaAscii() throws {
    #expect(Self.line(.raw, bars: [0, 0.25, 0.5, 1]) == "0;250;500;1000;\n")
  }

  @Test func rawMirrorsTheLeftChannelInStereo() throws {
    let line = Self.line(.raw, bars: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]) {
      $0.channels = .stereo
      $0.bars = 6
    }
    #expect(line == "300;200;100;400;500;600;\n")
  }

  @Test func rawMaxIsConfigurable() throws {
    #expect(Self.line(.raw, bars: [1, 0.5]) { $0.rawMax = 7 } == "7;4;\n")
  }

  @Test func waybarIsOneJSONObject() throws {
    let line = try #require(Self.line(.waybar, bars: [0.5, 0.5, 1, 0]) { $0.bubbleMax = 0 })
    #expect(
      line
        == "{\"text\":\"\(MorphGlyph.defaultFrames.last!) ▅▅█▁\",\"alt\":\"playing\",\"class\":[\"playing\"],\"tooltip\":\"Playing\",\"percentage\":50}\n"
    )
  }

  @Test func waybarMarksDisconnected() throws {
    let line = try #require(
      Self.line(.waybar, bars: [0.5], activity: .none, connected: false) {
        $0.tooltip = "{state} · {source}"
      })
    #expect(line.contains("\"alt\":\"stopped\",\"class\":[\"stopped\",\"disconnected\"]"))
    #expect(line.contains("audio server unreachable"))
  }

  @Test func jsonCarriesTheScene() throws {
    let line = try #require(Self.line(.json, bars: [0.25, 1]))
    #expect(line.hasPrefix("{\"seq\":1,\"time\":0.500,\"state\":\"playing\",\"connected\":true,"))
    #expect(line.contains("\"bars\":[0.250,1.000]"))
    #expect(line.contains("\"bubbles\":[]"))
    #expect(
      line.contains(
        "\"morph_shape\":[[[0.000,0.000],[0.500,0.250],[0.500,0.750],[0.000,1.000]],[[0.500,0.250],[1.000,0.500],[1.000,0.500],[0.500,0.750]]]"
      ))
    #expect(line.hasSuffix("}\n"))
  }

  @Test(arguments: OutputFormat.allCases)
  func unchangedFramesAreNotWritten(format: OutputFormat) {
    let renderer = FrameRenderer(format: format, configuration: Configuration())
    let scene = Scene(configuration: Configuration())
    let bars: [Float] = [0.1, 0.2]
    func render(time: Double) -> Bool {
      bars.withUnsafeBufferPointer {
        renderer.render(
          scene: scene, bars: $0, info: FrameInfo(time: time, source: "s", connected: true))
      }
    }
    #expect(render(time: 0.1))
    #expect(!render(time: 0.2), "same picture at a later time is not a new frame")
    renderer.forgetPrevious()
    #expect(render(time: 0.3))
  }

  /// A waybar line that would differ only in `percentage`, by less than 5 points, is not
  /// written; 5 points or more is; the comparison is against the last line written, so a slow
  /// drift is written once it adds up to 5.
  @Test func waybarSkipsSmallPercentageOnlyChanges() {
    var configuration = Configuration()
    configuration.bubbleMax = 0
    let renderer = FrameRenderer(format: .waybar, configuration: configuration)
    var scene = Scene(configuration: configuration)
    scene.advance(to: 0.1, activity: .running, signalPresent: true, onset: false)
    func render(_ bars: [Float]) -> String? {
      let written = bars.withUnsafeBufferPointer {
        renderer.render(
          scene: scene, bars: $0, info: FrameInfo(time: 0.1, source: "s", connected: true))
      }
      return written ? String(decoding: renderer.line.bytes, as: UTF8.self) : nil
    }
    // Both bars stay within the glyph ▅ (0.5 ..< 0.625) while the mean moves.
    #expect(render([0.5, 0.5])?.contains(#""percentage":50}"#) == true)
    #expect(render([0.53, 0.53]) == nil, "3 points: not written")
    #expect(render([0.54, 0.54]) == nil, "4 points from the last line written: not written")
    #expect(render([0.55, 0.55])?.contains(#""percentage":55}"#) == true, "5 points: written")
    #expect(render([0.1, 0.55]) != nil, "the text changed: written whatever the percentage")
  }

  @Test func numbersAreFixedPoint() {
    var line = ByteLine()
    line.append(0.0005, decimals: 3)
    line.append(UInt8(ascii: " "))
    line.append(-1.25, decimals: 1)
    line.append(UInt8(ascii: " "))
    line.append(12345.6789, decimals: 2)
    line.append(UInt8(ascii: " "))
    line.append(integer: 0)
    #expect(String(decoding: line.bytes, as: UTF8.self) == "0.001 -1.3 12345.68 0")
  }

  @Test func jsonEscaping() {
    var line = ByteLine()
    line.appendJSONEscaped(Array("a\"b\\c\nd\u{1}".utf8))
    #expect(String(decoding: line.bytes, as: UTF8.self) == "a\\\"b\\\\c\\nd\\u0001")
  }
}

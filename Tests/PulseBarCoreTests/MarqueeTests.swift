import Testing

@testable import PulseBarCore

/// Scrolling fields (`{title:N:scroll}`, ``Marquee``) with exact times: the window's cells,
/// its speed in wall time whatever the frame rate, the pause at each loop's start, and no
/// movement or wake-up while paused or stopped.
@Suite struct MarqueeTests {
  static let figure: Character = "\u{2007}"

  static func marquee(_ value: String, width: Int, speed: Double = 2, pause: Double = 1)
    -> Marquee
  {
    Marquee(
      value: value, width: width, separator: " · ", speed: speed, pause: pause,
      dialect: .textLine)
  }

  static func window(_ marquee: Marquee) -> String {
    var line = ByteLine()
    marquee.append(into: &line)
    return String(decoding: line.bytes, as: UTF8.self)
  }

  @Test func theWindowMovesACellAtATimeAfterThePause() {
    var marquee = Self.marquee("ABCDEFGHIJ", width: 4)
    #expect(marquee.scrolls)
    var windows: [String] = []
    for clock in [0, 0.9, 1.0, 1.5, 2.0, 3.0, 5.9, 6.4, 7.0, 7.6, 8.6] {
      marquee.advance(to: clock, playing: true)
      windows.append(Self.window(marquee))
    }
    // The loop is "ABCDEFGHIJ · " (13 cells): 1 s of pause, then 6.5 s at 2 cells a second.
    #expect(
      windows == [
        "ABCD", "ABCD", "ABCD", "BCDE", "CDEF", "EFGH", "J · ", " · A", " ABC", "ABCD", "ABCD",
      ])
    #expect(marquee.offset(at: 8.6) == 0 && marquee.offset(at: 9.1) == 1)
  }

  @Test func aValueThatFitsStandsStillAndPads() {
    var marquee = Self.marquee("Short", width: 8)
    #expect(!marquee.scrolls)
    marquee.advance(to: 0, playing: true)
    marquee.advance(to: 100, playing: true)
    #expect(Self.window(marquee) == "Short\u{2007}\u{2007}\u{2007}")
  }

  @Test func pausedItStandsStillAndGoesOnFromThere() {
    var marquee = Self.marquee("ABCDEFGHIJ", width: 4)
    marquee.advance(to: 0, playing: true)
    marquee.advance(to: 2, playing: true)
    #expect(Self.window(marquee) == "CDEF")
    marquee.advance(to: 50, playing: false)
    #expect(Self.window(marquee) == "CDEF", "still while paused")
    marquee.advance(to: 50.5, playing: true)
    #expect(Self.window(marquee) == "DEFG", "on from where it stood")
  }

  /// Wide characters (2 cells) and emoji: every window is exactly the width, a character cut
  /// by an edge showing as a figure space.
  @Test(arguments: ["日本語のタイトルです", "a日b本c語d", "🎵 Ça va 👍🏽 ok 🇫🇷", "e\u{301}tude 한국어"])
  func everyWindowIsExactlyItsWidth(value: String) {
    for width in 1...7 {
      var marquee = Self.marquee(value, width: width, speed: 10, pause: 0)
      for step in 0..<60 {
        marquee.advance(to: Double(step) * 0.1, playing: true)
        let window = Self.window(marquee)
        #expect(
          TextCells.width(of: window) == width, "\(value) width \(width) step \(step): '\(window)'")
      }
    }
  }

  /// A `%` or `{` is escaped with polybar's empty tag (plain and polybar lines) or an entity
  /// (Pango), and `&`, `<` in Pango as entities: the window counts what the escaped bytes
  /// show, so every window is exactly its width, and no escape takes a cell (the space that
  /// broke `%{` before made each window that held one a cell too wide).
  @Test(arguments: [
    (UntrustedText.Dialect.textLine, VisibleCells.Markup.none),
    (.textLine, .polybar), (.pango, .pango),
  ])
  func escapedCharactersKeepEveryWindowItsWidth(
    dialect: UntrustedText.Dialect, markup: VisibleCells.Markup
  ) {
    for value in ["50% off {live} at 100%", "%{F#f00}red%{F-} & <b>x</b>", "{{%%}}"] {
      for width in [1, 2, 5, 9] {
        var marquee = Marquee(
          value: value, width: width, separator: " · ", speed: 10, pause: 0, dialect: dialect,
          markup: markup)
        #expect(marquee.scrolls == (TextCells.width(of: value) > width), "\(value) in \(width)")
        for step in 0..<80 {
          marquee.advance(to: Double(step) * 0.1, playing: true)
          var line = ByteLine()
          marquee.append(into: &line)
          #expect(
            VisibleCells.count(line.bytes, markup: markup) == width,
            "\(value) width \(width) step \(step): '\(String(decoding: line.bytes, as: UTF8.self))'"
          )
        }
      }
    }
  }

  /// A consumer at 1 fps sees the window where a 60 fps one sees it at the same wall time.
  @Test func theSpeedIsWallTimeWhateverTheFrameRate() {
    var fast = Self.marquee("ABCDEFGHIJKLMNOP", width: 5, speed: 3, pause: 1.5)
    var slow = fast
    for frame in 0...600 { fast.advance(to: Double(frame) / 60, playing: true) }
    for second in 0...10 { slow.advance(to: Double(second), playing: true) }
    #expect(abs(fast.scrollTime - slow.scrollTime) < 1e-9)
    #expect(Self.window(fast) == Self.window(slow))
  }

  @Test(
    arguments: [
      ("{title:8:scroll}", nil), ("{artist:3:scroll} {source:9:scroll}", nil),
      ("{bars:4:scroll}", 9), ("{title:8:bounce}", 10), ("{title:scroll}", 8),
      ("{position:5:scroll}", 13),
    ] as [(String, Int?)])
  func theSyntax(template: String, errorColumn: Int?) {
    do {
      let parsed = try Template(parsing: template)
      #expect(errorColumn == nil, "\(template) parsed")
      #expect(parsed.items[0].scrolls)
    } catch {
      #expect(error.column == errorColumn, "\(template): \(error.message)")
    }
  }

  /// Through the pipeline: the engine wakes for scroll steps only while the line plays.
  @Test func wakeUpsOnlyWhilePlaying() throws {
    var configuration = Configuration()
    configuration.text = "{title:6:scroll}"
    let pipeline = FramePipeline(configuration: configuration, sampleRate: 44100)
    let consumer = try pipeline.addConsumer(ConsumerKey(format: .text, bars: 8))
    pipeline.nowPlaying = NowPlaying(
      player: "mpv", status: .paused, title: "A title far too long")
    for _ in 0..<60 { pipeline.advanceWithoutAudio(by: 1.0 / 60, activity: .corked) }
    pipeline.renderConsumers(info: FrameInfo(time: 1, source: "s", connected: true, clock: 10))
    #expect(pipeline.changedLine(consumer) != nil)
    #expect(pipeline.nextPositionChange(after: 10) == nil, "no wake-up while paused")
    pipeline.nowPlaying?.status = .playing
    let tone = (0..<735).map { Float(($0 % 20) < 10 ? 0.5 : -0.5) }
    for _ in 0..<10 {
      tone.withUnsafeBufferPointer { pipeline.advance(audio: $0, activity: .running) }
    }
    #expect(pipeline.scene.state == .playing)
    pipeline.renderConsumers(info: FrameInfo(time: 1, source: "s", connected: true, clock: 11))
    let due = try #require(pipeline.nextPositionChange(after: 11))
    #expect(due > 11 && due <= 11 + configuration.scrollPause + 1e-9)
  }
}

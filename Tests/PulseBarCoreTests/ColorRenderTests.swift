import Testing

@testable import PulseBarCore

/// `[colors]` in every markup: the tags each reader knows, and never a change of width.
@Suite struct ColorRenderTests {
  static let play = MorphGlyph.defaultFrames.last!
  static let black = RGBColor(red: 0, green: 0, blue: 0)
  static let white = RGBColor(red: 255, green: 255, blue: 255)
  static let green = RGBColor(red: 0xa6, green: 0xe3, blue: 0xa1)

  static func line(
    _ format: OutputFormat, _ markup: Markup, by coloring: BarColoring = .position,
    colored: Bool = true, bars: [Float] = [0, 1]
  ) -> String {
    RenderTests.line(format, bars: bars) {
      $0.markup = markup
      $0.bubbleMax = 2
      $0.barColoring = coloring
      if colored {
        $0.barColors = [black, white]
        $0.playingColor = green
        $0.bubbleColor = white
      }
    } ?? ""
  }

  @Test func tagsInEachDialect() {
    let pad = "\u{2007}\u{2007}"
    #expect(
      Self.line(.text, .pango)
        == "<span foreground=\"#a6e3a1\">\(Self.play)</span> <span foreground=\"#000000\">▁</span>"
        + "<span foreground=\"#ffffff\">█</span> <span foreground=\"#ffffff\">\(pad)</span>\n")
    #expect(
      Self.line(.text, .polybar)
        == "%{F#a6e3a1}\(Self.play)%{F-} %{F#000000}▁%{F-}%{F#ffffff}█%{F-} %{F#ffffff}\(pad)%{F-}\n"
    )
    let esc = "\u{1B}"
    #expect(
      Self.line(.text, .ansi)
        == "\(esc)[38;2;166;227;161m\(Self.play)\(esc)[39m \(esc)[38;2;0;0;0m▁\(esc)[39m"
        + "\(esc)[38;2;255;255;255m█\(esc)[39m \(esc)[38;2;255;255;255m\(pad)\(esc)[39m\n")
    #expect(Self.line(.text, .none) == "\(Self.play) ▁█ \(pad)\n", "plain text has no colour")
    #expect(
      Self.line(.waybar, .none).hasPrefix(
        ##"{"text":"<span foreground=\"#a6e3a1\">\##(Self.play)</span> <span foreground=\"#000000\">"##
      ))
  }

  /// A gradient over height colours each bar by its level.
  @Test func gradientOverHeight() {
    #expect(
      Self.line(.text, .polybar, by: .height, bars: [1, 1, 0]).hasPrefix(
        "%{F#a6e3a1}\(Self.play)%{F-} %{F#ffffff}█%{F-}%{F#ffffff}█%{F-}%{F#000000}▁%{F-}"))
    let threeStops = RenderTests.line(.text, bars: [0, 0.5, 1]) {
      $0.markup = .polybar
      $0.bubbleMax = 0
      $0.barColors = [Self.black, Self.white, Self.black]
    }
    #expect(threeStops == "\(Self.play) %{F#000000}▁%{F-}%{F#ffffff}▅%{F-}%{F#000000}█%{F-}\n")
  }

  @Test(arguments: [
    (OutputFormat.text, Markup.pango), (.text, .polybar), (.text, .ansi), (.waybar, .none),
    (.waybar, .pango),
  ])
  func colourNeverChangesTheWidth(format: OutputFormat, markup: Markup) throws {
    for coloring in BarColoring.allCases {
      let colored = try Self.visible(Self.line(format, markup, by: coloring), format, markup)
      let plain = try Self.visible(Self.line(format, markup, colored: false), format, markup)
      #expect(colored == plain, "\(format) \(markup) \(coloring)")
      #expect(TextCells.width(of: colored) == 2 + 2 + 1 + 2)
    }
  }

  /// The text a reader draws: markup stripped as its consumer reads it.
  static func visible(_ line: String, _ format: OutputFormat, _ markup: Markup) throws -> String {
    var text = String(line.dropLast())
    if format == .waybar {
      text = try #require(HostileTextTests.jsonObject(line)["text"] as? String)
    }
    switch (format, markup) {
    case (.waybar, _), (_, .pango): return try PangoReader.text(text)
    case (_, .polybar): return PolybarReader.text(text)
    case (_, .ansi): return AnsiReader.text(text)
    default: return text
    }
  }
}

import Glibc
import PulseBarCore
import PulseBarTestSupport
import Testing

@testable import PulseBarDaemon

/// What a status bar draws: every glyph the default formats can emit is in both font families
/// desktops ship (DejaVu and Noto), one cell wide in their monospace fonts, and the text and
/// waybar lines keep one display width in every state.
@Suite struct StatusBarGlyphTests {
  /// A font as a bar's fontconfig pattern finds it: the files it falls back through within the
  /// family, and whether each glyph must take exactly one cell (the advance of `0`).
  struct Font: CustomTestStringConvertible, Sendable {
    let name: String
    let files: [String]
    let monospace: Bool
    var testDescription: String { name }
  }

  /// DejaVu (`fonts-dejavu-core`) and Noto (`fonts-noto-core`, `fonts-noto-mono`) as Debian
  /// ships them: what waybar, polybar and i3bar fall back to, and the `monospace` the shipped
  /// waybar CSS and the polybar recipe ask for. Noto Sans draws symbols from Noto Sans Symbols 2 and
  /// the bar glyphs (block elements) from Noto Sans Mono, the only Noto font that has them.
  static let fonts = [
    Font(
      name: "DejaVu Sans", files: ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"],
      monospace: false),
    Font(
      name: "DejaVu Sans Mono", files: ["/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"],
      monospace: true),
    Font(
      name: "Noto Sans",
      files: [
        "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansMono-Regular.ttf",
      ], monospace: false),
    Font(
      name: "Noto Sans Mono", files: ["/usr/share/fonts/truetype/noto/NotoSansMono-Regular.ttf"],
      monospace: true),
  ]

  /// Every default glyph list, the bubble padding, the offline text, the default player icon,
  /// and every scalar of every line the text, waybar (plain and Pango) and json formats and the
  /// offline frames produce through a scripted run (stopped, playing with bubbles, morphing, corked, disconnected):
  /// in the font (or its family's fallback), and in a monospace font one cell wide (the advance
  /// of `0`: Noto Sans Mono draws ▶ and ⊘ two cells wide).
  @Test(arguments: fonts)
  func everyDefaultGlyphIsInTheFont(_ font: Font) throws {
    for file in font.files where access(file, R_OK) != 0 {
      Issue.record(
        "\(file) is missing (apt-get install fonts-dejavu-core fonts-noto-core fonts-noto-mono)")
      return
    }
    let scalars = Self.defaultScalars()
    let printable = scalars.filter { $0.value >= 0x20 }.sorted { $0.value < $1.value }
    #expect(printable.contains("►") && printable.contains("‖"), "the morph glyphs were checked")
    let advances = try font.files.map { try Self.advances(of: printable + ["0"], in: $0) }
    var missing: [String] = []
    var wide: [String] = []
    for scalar in printable {
      let name = "\(scalar) U+\(String(scalar.value, radix: 16, uppercase: true))"
      guard let index = advances.firstIndex(where: { $0[scalar] != nil }) else {
        missing.append(name)
        continue
      }
      if font.monospace, advances[index][scalar] != advances[index]["0"] {
        wide.append(
          "\(name): \(advances[index][scalar] ?? 0) units, 0 has \(advances[index]["0"] ?? 0)")
      }
    }
    #expect(missing.isEmpty, "not in \(font.name): \(missing)")
    #expect(wide.isEmpty, "not one cell in \(font.name): \(wide)")
  }

  /// The scalars a status bar can be sent with the default configuration.
  static func defaultScalars() -> Set<Unicode.Scalar> {
    var scalars = Set<Unicode.Scalar>()
    let defaults = Configuration()
    for glyph in defaults.barGlyphs + defaults.bubbleGlyphs + defaults.morphGlyphs {
      scalars.formUnion(glyph.unicodeScalars)
    }
    scalars.formUnion(defaults.offlineText.unicodeScalars)
    // `{player_icon}` of a player `players.icons` does not name.
    scalars.formUnion(defaults.playerIcons.fallback.unicodeScalars)
    scalars.formUnion("\(FrameRenderer.bubblePadding)".unicodeScalars)
    scalars.formUnion("\(TextCells.padding)\(TextCells.ellipsis)".unicodeScalars)
    for format in [OutputFormat.text, .waybar, .json] {
      for markup in Markup.allCases {
        let lines = Self.scriptedLines(format: format) { $0.markup = markup }
        for line in lines { scalars.formUnion(line.unicodeScalars) }
      }
    }
    for format in OutputFormat.allCases {
      scalars.formUnion(
        ListenCommand.offlineFrame(format: format, bars: 8, configuration: defaults).unicodeScalars)
    }
    return scalars
  }

  /// One display width (terminal cells, `wcwidth`) for every text and waybar line of a run,
  /// in every state, with bubbles on (the area padded to `bubbles.max`) and off.
  @Test(arguments: [6, 3, 0])
  func linesKeepOneWidth(bubbleMax: Int) throws {
    for format in [OutputFormat.text, .waybar] {
      for markup in Markup.allCases where format == .waybar || markup == .none {
        let lines = Self.scriptedLines(format: format) {
          $0.bubbleMax = bubbleMax
          $0.markup = markup
        }
        let texts = try lines.map { line in
          format == .text ? line : try Self.waybarVisibleText(line)
        }
        let widths = Set(texts.map(Self.displayWidth))
        let expected = 2 + 8 + (bubbleMax > 0 ? 1 + bubbleMax : 0)
        #expect(widths == [expected], "\(format) \(markup) bubbles \(bubbleMax): \(widths)")
        if bubbleMax > 0 {
          #expect(
            texts.contains { $0.contains("○") || $0.contains("◦") || $0.contains("•") },
            "the script spawned no bubbles")
        }
      }
    }
  }

  /// `output.title_width`: the title area keeps one width (glibc's `wcwidth`) whatever the
  /// title is — none, short, cut, East Asian wide, combining accents, emoji — and the title's
  /// glyphs are in the fonts' reach (the padding and "…").
  @Test(arguments: [OutputFormat.text, .waybar])
  func titleKeepsOneWidth(format: OutputFormat) throws {
    let titles: [String?] = [
      nil, "Hi", "A much longer title than fits", "日本語の歌のタイトル", "Ünïcödé e\u{301}",
      "🎵 Song 🎶", "a & <b>",
    ]
    var configuration = Configuration()
    configuration.titleWidth = 12
    configuration.bubbleMax = 0
    var scene = Scene(configuration: configuration)
    scene.advance(to: 0, activity: .none, signalPresent: false, onset: false)
    let renderer = FrameRenderer(format: format, configuration: configuration)
    let bars = [Float](repeating: 0.5, count: 8)
    var widths: [Int] = []
    for (index, title) in titles.enumerated() {
      renderer.nowPlaying = title.map { NowPlaying(player: "mpv", status: .paused, title: $0) }
      let info = FrameInfo(time: Double(index), source: "s", connected: true)
      let written = bars.withUnsafeBufferPointer {
        renderer.render(scene: scene, bars: $0, info: info)
      }
      #expect(written, "title \(title ?? "none") wrote no line")
      let line = String(decoding: renderer.line.bytes.dropLast(), as: UTF8.self)
      var text = format == .text ? line : try Self.waybarVisibleText(line)
      // What Pango shows for the escapes.
      text = text.replacing("&amp;", with: "&").replacing("&lt;", with: "<")
        .replacing("&gt;", with: ">")
      widths.append(Self.displayWidth(text))
    }
    #expect(Set(widths) == [2 + 8 + 1 + 12], "\(format): \(widths)")
  }

  // MARK: - Helpers

  /// The lines a renderer writes through a scripted run at 60 fps: stopped 0.5 s, playing with
  /// an onset every 0.25 s for 4.5 s (bubbles up to the maximum, then fading), corked 1 s,
  /// no stream 1 s, then the audio server gone 1 s.
  static func scriptedLines(
    format: OutputFormat, bars barCount: Int = 8,
    configure: (inout Configuration) -> Void = { _ in }
  ) -> [String] {
    var configuration = Configuration()
    configuration.bars = barCount
    configure(&configuration)
    var scene = Scene(configuration: configuration)
    let renderer = FrameRenderer(format: format, configuration: configuration)
    var lines: [String] = []
    var bars = [Float](repeating: 0, count: barCount)
    for frame in 0..<480 {
      let time = Double(frame) / 60
      let activity: StreamActivity =
        frame < 30 ? .none : frame < 300 ? .running : frame < 360 ? .corked : .none
      let live = (0..<barCount).map { Float((frame * 7 + $0 * 13) % 100) / 100 }
      scene.advance(
        to: time, activity: activity, signalPresent: activity == .running,
        onset: activity == .running && frame % 15 == 0)
      live.withUnsafeBufferPointer { live in
        bars.withUnsafeMutableBufferPointer { scene.composeBars(live: live, into: $0) }
      }
      let info = FrameInfo(time: time, source: "sink · \"a\"", connected: frame < 420)
      let written = bars.withUnsafeBufferPointer {
        renderer.render(scene: scene, bars: $0, info: info)
      }
      if written { lines.append(String(decoding: renderer.line.bytes.dropLast(), as: UTF8.self)) }
    }
    return lines
  }

  /// The text waybar shows for a line: `text`, JSON-decoded, with Pango tags removed.
  static func waybarVisibleText(_ line: String) throws -> String {
    let text = try #require(JSONValue.parse(line)?["text"]?.string, "not waybar JSON: \(line)")
    var visible = ""
    var inTag = false
    for character in text {
      if character == "<" {
        inTag = true
      } else if character == ">" {
        inTag = false
      } else if !inTag {
        visible.append(character)
      }
    }
    return visible
  }

  /// Terminal cells `text` takes (glibc's `wcwidth` per scalar in a UTF-8 locale).
  static func displayWidth(_ text: String) -> Int {
    _ = setlocale(LC_CTYPE, "C.UTF-8")
    return text.unicodeScalars.reduce(0) { sum, scalar in
      sum + Int(max(0, wcwidth(Int32(bitPattern: scalar.value))))
    }
  }

  /// glibc's `wcwidth`, which the Glibc module does not export, looked up once.
  static let wcwidth: @convention(c) (Int32) -> Int32 = {
    let symbol = dlsym(dlopen(nil, RTLD_NOW), "wcwidth")
    return unsafeBitCast(symbol!, to: (@convention(c) (Int32) -> Int32).self)
  }()

  /// Each scalar's advance width (font units) in `font`, from its cmap and hmtx tables (read
  /// with fontTools, `python3-fonttools`); scalars the font lacks are left out.
  static func advances(of scalars: [Unicode.Scalar], in font: String) throws -> [Unicode.Scalar:
    Int]
  {
    let script = """
      import sys
      from fontTools.ttLib import TTFont
      font = TTFont(sys.argv[1])
      cmap = font.getBestCmap()
      for point in sys.argv[2:]:
          glyph = cmap.get(int(point, 16))
          if glyph is not None:
              print(point, font["hmtx"][glyph][0])
      """
    let points = scalars.map { String($0.value, radix: 16) }
    let query = try ChildProcess("/usr/bin/python3", ["-c", script, font] + points)
    var advances: [Unicode.Scalar: Int] = [:]
    while let line = query.readLine(timeout: 30) {
      let fields = line.split(separator: " ")
      guard fields.count == 2, let point = UInt32(fields[0], radix: 16),
        let scalar = Unicode.Scalar(point), let advance = Int(fields[1])
      else { continue }
      advances[scalar] = advance
    }
    #expect(try query.waitForExit(timeout: 30) == 0, "fontTools on \(font): \(query.standardError)")
    #expect(advances.count > 10, "fontTools read almost nothing from \(font)")
    return advances
  }
}

import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarTestSupport
import Testing

@testable import PulseBarDaemon

/// What a status bar draws: every glyph the default formats can emit is in Debian's default
/// fonts, and the text and waybar lines keep one display width in every state.
@Suite struct StatusBarGlyphTests {
  /// DejaVu Sans and DejaVu Sans Mono (`fonts-dejavu-core`): what waybar, polybar and i3bar fall
  /// back to on Debian, and the monospace the shipped waybar CSS asks for.
  static let fonts = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
  ]

  /// Every default glyph list, the bubble padding, the offline text, and every scalar of every
  /// line the text, waybar (plain and Pango) and json formats and the offline frames produce
  /// through a scripted run (stopped, playing with bubbles, morphing, corked, disconnected).
  @Test(arguments: fonts)
  func everyDefaultGlyphIsInTheFont(_ font: String) throws {
    let charset = try Self.charset(of: font)
    #expect(charset.count > 1000, "fc-query gave a tiny charset for \(font)")
    var scalars = Set<Unicode.Scalar>()
    let defaults = Configuration()
    for glyph in defaults.barGlyphs + defaults.bubbleGlyphs + defaults.morphGlyphs {
      scalars.formUnion(glyph.unicodeScalars)
    }
    scalars.formUnion(defaults.offlineText.unicodeScalars)
    scalars.formUnion("\(FrameRenderer.bubblePadding)".unicodeScalars)
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
    let printable = scalars.filter { $0.value >= 0x20 }
    let missing = printable.filter { !charset.contains($0.value) }
      .sorted { $0.value < $1.value }
      .map { "\($0) U+\(String($0.value, radix: 16, uppercase: true))" }
    #expect(missing.isEmpty, "not in \(font): \(missing)")
    #expect(printable.contains("▶") && printable.contains("‖"), "the morph glyphs were checked")
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
            texts.contains { $0.contains("♥") || $0.contains("♡") || $0.contains("❤") },
            "the script spawned no bubbles")
        }
      }
    }
  }

  // MARK: - Helpers

  /// The lines a renderer writes through a scripted run at 60 fps: stopped 0.5 s, playing with
  /// an onset every 0.25 s for 4.5 s (bubbles up to the maximum, then fading), corked 1 s,
  /// no stream 1 s, then the audio server gone 1 s.
  static func scriptedLines(
    format: OutputFormat, configure: (inout Configuration) -> Void = { _ in }
  ) -> [String] {
    var configuration = Configuration()
    configure(&configuration)
    var scene = Scene(configuration: configuration)
    let renderer = FrameRenderer(format: format, configuration: configuration)
    var lines: [String] = []
    var bars = [Float](repeating: 0, count: 8)
    for frame in 0..<480 {
      let time = Double(frame) / 60
      let activity: StreamActivity =
        frame < 30 ? .none : frame < 300 ? .running : frame < 360 ? .corked : .none
      let live = (0..<8).map { Float((frame * 7 + $0 * 13) % 100) / 100 }
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

  /// The font's code points, from fontconfig: `fc-query --format '%{charset}'` prints hex
  /// ranges (`20-7e a0-17f …`).
  static func charset(of font: String) throws -> Set<UInt32> {
    let query = try ChildProcess("fc-query", ["--format", "%{charset}", font])
    var text = ""
    while let line = query.readLine(timeout: 10) { text += line + " " }
    #expect(try query.waitForExit(timeout: 10) == 0, "fc-query: \(query.standardError)")
    var points = Set<UInt32>()
    for range in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
      let ends = range.split(separator: "-").compactMap { UInt32($0, radix: 16) }
      guard let first = ends.first, let last = ends.last, first <= last else { continue }
      points.formUnion(first...last)
    }
    return points
  }
}

import Glibc
import Testing

@testable import PulseBarCore

@Suite struct ConfigTests {
  /// `config/pulsebar.conf` from the package root.
  static var shippedPath: String {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path + "/config/pulsebar.conf"
  }

  static func read(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = fread(&chunk, 1, chunk.count, file)
      if count == 0 { break }
      bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The shipped file is exactly the generated reference, so it lists every key with its default.
  /// Re-record on purpose with `PULSEBAR_RECORD=1 swift test --filter shippedConfig`.
  @Test func shippedConfigIsTheReference() throws {
    let expected = ConfigKeys.defaultFileText()
    if getenv("PULSEBAR_RECORD") != nil, let file = fopen(Self.shippedPath, "w") {
      fputs(expected, file)
      fclose(file)
    }
    let shipped = try #require(Self.read(Self.shippedPath), "missing \(Self.shippedPath)")
    #expect(shipped == expected)
  }

  @Test func shippedConfigParsesToTheDefaults() throws {
    let shipped = try #require(Self.read(Self.shippedPath))
    let parsed = try ConfigParser.parse(shipped, file: "pulsebar.conf")
    #expect(parsed == Configuration())
    for setting in ConfigKeys.all {
      #expect(
        shipped.contains("\n\(setting.key) = "), "\(setting.key) missing from the shipped file")
    }
  }

  @Test func valuesAreRead() throws {
    let text = """
      # comment
      [general]
      bars = 32
      channels = stereo
      format = waybar
      [input]
      source = pulse:alsa_output.monitor
      [analysis]
      autosens = off
      noise_reduction = 0.5
      [output]
      bar_glyphs = a b c
      [scene]
      rest_heights = 0.1, 0.2
      [bubbles]
      glyphs = ★☆
      """
    let configuration = try ConfigParser.parse(text, file: "x")
    #expect(configuration.bars == 32)
    #expect(configuration.channels == .stereo)
    #expect(configuration.format == .waybar)
    #expect(configuration.input == .pulse(source: "alsa_output.monitor"))
    #expect(configuration.autosens == false)
    #expect(configuration.noiseReduction == 0.5)
    #expect(configuration.barGlyphs == ["a", "b", "c"])
    #expect(configuration.restHeights == [0.1, 0.2])
    #expect(configuration.bubbleGlyphs == ["★", "☆"])
  }

  /// A file saved with Windows line endings reads as with Unix ones, errors on the same line
  /// (Swift reads `\r\n` as one character, so splitting on `\n` alone left such a file one
  /// long line, refused as "section header needs a closing ']'"; found by the config fuzzer's
  /// CRLF check).
  @Test func crlfLineEndings() throws {
    let text = "[general]\r\nbars = 16\r\n\r\n# note\r\n[output]\r\noffline_text = off\r\n"
    let configuration = try ConfigParser.parse(text, file: "crlf")
    #expect(configuration.bars == 16)
    #expect(configuration.offlineText == "off")
    #expect(
      throws: ConfigError(
        file: "crlf", line: 2,
        message:
          "unknown key 'bar' in [general] (known: bars, fps, channels, format, seed); did you mean 'bars'?"
      )
    ) {
      try ConfigParser.parse("[general]\r\nbar = 1\r\n", file: "crlf")
    }
  }

  /// Glyph lists refuse control characters. A tab or NUL would land in every output line, and
  /// a glyph list holding one did not survive being written back: the combining mark after
  /// it (U+0598 here) became a glyph of its own, which the separating space then absorbed
  /// (found by the config fuzzer's render → parse check).
  @Test func glyphsRefuseControlCharacters() throws {
    #expect(
      throws: ConfigError(
        file: "x", line: 2, message: "output.bar_glyphs: glyphs must be printable, got U+0000")
    ) {
      try ConfigParser.parse("[output]\nbar_glyphs = ▁ ▂\u{0}\u{598}", file: "x")
    }
    #expect(
      throws: ConfigError(
        file: "x", line: 2, message: "bubbles.glyphs: glyphs must be printable, got U+0009")
    ) {
      try ConfigParser.parse("[bubbles]\nglyphs = ♪\t♫", file: "x")
    }
    let combining = try ConfigParser.parse("[output]\nbar_glyphs = a\u{598} b", file: "x")
    #expect(combining.barGlyphs == ["a\u{598}", "b"])
  }

  /// One case per class of error, each with the file and line it names.
  @Test(arguments: [
    (
      "[general]\nbars = 8\n[colours]\n",
      "f.conf:3: unknown section [colours] (known: general, input, analysis, output, colors, players, lyrics, socket, scene, bubbles); did you mean 'colors'?"
    ),
    (
      "[general]\nbarz = 8\n",
      "f.conf:2: unknown key 'barz' in [general] (known: bars, fps, channels, format, seed); did you mean 'bars'?"
    ),
    (
      "[general]\nbars = 8\n[output]\nraw_max = 9\n[general]\n  bars = 9\n",
      "f.conf:6: general.bars is given twice: on line 2 and on line 6"
    ),
    (
      "[colors]\nbars = #89b4fa, blue\n",
      "f.conf:2: colors.bars: expected colours as #rrggbb separated by commas, got 'blue'"
    ),
    (
      "[colors]\nplaying = #12345\n",
      "f.conf:2: colors.playing: expected a colour as #rrggbb (or nothing), got '#12345'"
    ),
    (
      "[colors]\nbars_by = width\n",
      "f.conf:2: colors.bars_by: expected one of position, height, got 'width'"
    ),
    (
      "[output]\nhide_when = always\n",
      "f.conf:2: output.hide_when: expected one of never, stopped, not_playing, got 'always'"
    ),
    (
      "[players]\nignore = fire fox\n",
      "f.conf:2: players.ignore: expected player names separated by commas, got 'fire fox'"
    ),
    ("[output]\ntooltip = {title\n", "f.conf:2:11: output.tooltip: '{' is not closed"),
    ("bars = 8\n", "f.conf:1: 'bars' comes before any [section]"),
    ("[general]\nbars\n", "f.conf:2: expected 'key = value', got 'bars'"),
    ("[general\n", "f.conf:1: section header needs a closing ']'"),
    ("[general]\nbars = many\n", "f.conf:2: general.bars: expected a whole number, got 'many'"),
    ("[general]\n\nbars = 0\n", "f.conf:3: general.bars: 0 is out of range 1…512"),
    (
      "[general]\nchannels = quad\n",
      "f.conf:2: general.channels: expected one of mono, stereo, got 'quad'"
    ),
    (
      "[analysis]\nautosens = maybe\n",
      "f.conf:2: analysis.autosens: expected true or false, got 'maybe'"
    ),
    (
      "[analysis]\nnoise_reduction = 2\n",
      "f.conf:2: analysis.noise_reduction: 2 is out of range 0…0.99"
    ),
    (
      "[input]\nsource = cdrom\n",
      "f.conf:2: input.source: expected auto, pulse, pulse:NAME, pipewire, file:PATH, fifo:PATH or stdin, got 'cdrom'"
    ),
    (
      "[scene]\nrest_heights = 0.5, 2\n",
      "f.conf:2: scene.rest_heights: expected numbers from 0 to 1 separated by commas, got '2'"
    ),
    (
      "[analysis]\nlow_cutoff = 5000\nhigh_cutoff = 1000\n",
      "f.conf:3: low_cutoff (5000) must be below high_cutoff (1000)"
    ),
    (
      "[general]\nbars = 7\nchannels = stereo\n",
      "f.conf:3: bars must be even in stereo (half per channel), got 7"
    ),
  ])
  func errorsNameFileAndLine(text: String, message: String) {
    #expect(throws: ConfigError.self) { try ConfigParser.parse(text, file: "f.conf") }
    do {
      _ = try ConfigParser.parse(text, file: "f.conf")
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func colorsPlayersAndHidingAreRead() throws {
    let text = """
      [output]
      text_paused = {glyph} {title:10}
      hide_when = not_playing
      hide_after = 2.5
      [colors]
      bars = #89B4FA, #cba6f7,#f38ba8
      bars_by = height
      playing = #a6e3a1
      paused =
      [players]
      ignore = firefox, chromium
      prefer = spotify,mpv
      """
    let configuration = try ConfigParser.parse(text, file: "x")
    #expect(configuration.textPaused == "{glyph} {title:10}")
    #expect(configuration.hideWhen == .notPlaying && configuration.hideAfter == 2.5)
    #expect(configuration.barColors.map(\.description) == ["#89b4fa", "#cba6f7", "#f38ba8"])
    #expect(configuration.barColoring == .height)
    #expect(configuration.playingColor == RGBColor(red: 0xa6, green: 0xe3, blue: 0xa1))
    #expect(configuration.pausedColor == nil)
    #expect(
      configuration.players
        == PlayerPreference(ignore: ["firefox", "chromium"], prefer: ["spotify", "mpv"]))
    let stops = [RGBColor(red: 0, green: 0, blue: 0), RGBColor(red: 200, green: 100, blue: 50)]
    #expect(RGBColor.gradient(stops, at: 0.5) == RGBColor(red: 100, green: 50, blue: 25))
    #expect(RGBColor.gradient(stops, at: 1) == stops[1])
  }

  @Test func inputSpellings() {
    #expect(InputSpec(parsing: "pulse") == .pulse(source: nil))
    #expect(InputSpec(parsing: "pulse:auto") == .pulse(source: nil))
    #expect(InputSpec(parsing: "auto") == .auto)
    #expect(InputSpec(parsing: "pipewire") == .pipewire)
    #expect(Configuration().input == .auto)
    for spelling in ["auto", "pulse", "pulse:foo.monitor", "pipewire", "stdin"] {
      #expect(InputSpec(parsing: spelling)?.description == spelling)
    }
    #expect(InputSpec(parsing: "pulse:foo.monitor") == .pulse(source: "foo.monitor"))
    #expect(InputSpec(parsing: "file:/a b.wav") == .file(path: "/a b.wav"))
    #expect(InputSpec(parsing: "fifo:/tmp/mpd.fifo") == .fifo(path: "/tmp/mpd.fifo"))
    #expect(InputSpec(parsing: "stdin") == .stdin)
    #expect(InputSpec(parsing: "file:") == nil)
    #expect(InputSpec(parsing: "alsa") == nil)
  }
}

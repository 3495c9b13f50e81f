import Testing

@testable import PulseBarCore

/// The template language of `output.text`, `text_playing`/`_paused`/`_stopped` and
/// `output.tooltip`: fields, widths, dropping, and the errors a config file gets.
@Suite struct TemplateTests {
  /// Values for every field.
  static func full(_ field: Template.Field) -> String? {
    switch field {
    case .glyph: "▶"
    case .bars: "▁▃▅"
    case .bubbles: "♪"
    case .state: "Playing"
    case .player: "mpv"
    case .title: "Title"
    case .artist: "Artist"
    case .album: "Album"
    case .position: "1:02"
    case .length: "3:20"
    case .progress: "██░"
    case .source: "sink.monitor"
    case .lyric: "La la la"
    case .volume: "40%"
    case .playerIcon: "◉"
    }
  }

  @Test(arguments: Template.Field.allCases)
  func everyFieldRenders(field: Template.Field) throws {
    let template = try Template(parsing: "<{\(field.rawValue)}>")
    #expect(template.text(Self.full) == "<\(Self.full(field)!)>")
    #expect(template.shows(field))
  }

  @Test(
    arguments: [
      ("{title:8}", "Title\u{2007}\u{2007}\u{2007}"),
      ("{title:3}", "Ti…"),
      ("{artist:6}|{album:2}", "Artist|A…"),
      ("{state:7} {position:5}/{length}", "Playing 1:02\u{2007}/3:20"),
      ("{{{title}}}", "{Title}"),
      ("a}b", "a}b"),
      ("no fields", "no fields"),
      ("", ""),
    ] as [(String, String)])
  func widthsAndBraces(text: String, expected: String) throws {
    #expect(try Template(parsing: text).text(Self.full) == expected)
  }

  /// A field with no value goes with the separator before it (the lightest of those between
  /// the fields left); with a width it pads instead, so the width stays.
  @Test(
    arguments: [
      ("{state} · {artist} — {title} ({player})", [Template.Field.artist], "Playing · Title (mpv)"),
      ("{state} · {artist} — {title} ({player})", [.title], "Playing · Artist (mpv)"),
      ("{state} · {artist} — {title} ({player})", [.artist, .title, .player], "Playing"),
      ("{glyph} {bars} {bubbles}", [.bubbles], "▶ ▁▃▅"),
      ("{glyph} {bars} {title:4}", [.title], "▶ ▁▃▅ \u{2007}\u{2007}\u{2007}\u{2007}"),
      ("♪ {title} [{album}] <{player}>!", [.album, .player], "♪ Title!"),
      ("{title} - {artist}", [.title], "Artist"),
      (
        "{position}/{length} {progress:3}", [.position, .length, .progress],
        "\u{2007}\u{2007}\u{2007}"
      ),
    ] as [(String, [Template.Field], String)])
  func missingFieldsDrop(text: String, missing: [Template.Field], expected: String) throws {
    let template = try Template(parsing: text)
    #expect(template.text { missing.contains($0) ? nil : Self.full($0) } == expected)
  }

  @Test(
    arguments: [
      ("{glyph} {nope}", 10, "unknown field {nope}"),
      ("ab {title", 4, "'{' is not closed"),
      ("{title:0}", 8, "bad width '0' for {title}"),
      ("{title:x}", 8, "bad width 'x' for {title}"),
      ("é {artist:501}", 11, "bad width '501' for {artist}"),
      ("{}", 2, "unknown field {}"),
      ("ok\tno", 3, "control character U+0009 in a template"),
      ("{glyph}ed\rline", 10, "control character U+000D in a template"),
      ("{title}\u{1B}[31m", 8, "control character U+001B in a template"),
      ("a\u{202E}b", 2, "control character U+202E in a template"),
    ] as [(String, Int, String)])
  func errorsHaveTheirColumn(text: String, column: Int, message: String) {
    do {
      _ = try Template(parsing: text)
      Issue.record("\(text) parsed")
    } catch {
      #expect(error.column == column, "\(text)")
      #expect(error.message.hasPrefix(message), "\(error.message)")
    }
  }

  /// In a config file the column counts from the start of the line.
  @Test func configErrorNamesFileLineAndColumn() {
    #expect(
      throws: ConfigError(
        file: "f.conf", line: 3, column: 19,
        message:
          "output.text: unknown field {titel}; expected {glyph} {bars} {bubbles} {state} {player} {title} {artist} {album} {position} {length} {progress} {source} {lyric} {volume} {player_icon}"
      )
    ) {
      try ConfigParser.parse("[output]\n\n  text =  {bars} {titel}\n", file: "f.conf")
    }
    let error = ConfigError(file: "f", line: 2, column: 7, message: "m")
    #expect(error.description == "f:2:7: m")
  }

  @Test func titleWidthAppendsATitleField() {
    var configuration = Configuration()
    #expect(configuration.textTemplate(for: .playing) == "{glyph} {bars} {bubbles}")
    configuration.titleWidth = 12
    configuration.textPaused = "{glyph} paused"
    #expect(configuration.textTemplate(for: .playing) == "{glyph} {bars} {bubbles} {title:12}")
    #expect(configuration.textTemplate(for: .paused) == "{glyph} paused {title:12}")
  }
}

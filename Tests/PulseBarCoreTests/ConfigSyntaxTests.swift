import PulseBarSystem
import Testing

@testable import PulseBarCore

/// What editors and users put in a config file beyond plain `key = value`: a byte-order mark,
/// quotes, deprecated keys, an empty template, and bytes a terminal would obey.
@Suite struct ConfigSyntaxTests {
  /// Notepad and some Windows editors start a UTF-8 file with U+FEFF: it is skipped, and an
  /// error on the first line names the line, not an invisible character.
  @Test func aByteOrderMarkIsSkipped() throws {
    let parsed = try ConfigParser.parse("\u{FEFF}[general]\nbars = 12\n", file: "bom")
    #expect(parsed.bars == 12)
    let crlf = try ConfigParser.parse("\u{FEFF}[output]\r\noffline_text = x\r\n", file: "bom")
    #expect(crlf.offlineText == "x")
    #expect(
      throws: ConfigError(
        file: "bom", line: 2,
        message: "unknown key 'bars' in [output] (known: \(ConfigTestKeys.output))")
    ) {
      try ConfigParser.parse("\u{FEFF}[output]\nbars = 1\n", file: "bom")
    }
  }

  /// One pair of matching quotes around a whole value is removed (the quotes never reach the
  /// bar), keeping the spaces inside; a quote inside a value, or an unmatched one, is text.
  @Test(arguments: [
    (#"text = "{glyph} {bars}""#, "{glyph} {bars}"),
    ("text = '{glyph} {bars}'", "{glyph} {bars}"),
    (#"text = " {glyph} ""#, " {glyph} "),
    (#"text = ""{title}"""#, #""{title}""#),
    (#"text = {glyph} "{title}""#, #"{glyph} "{title}""#),
    (#"text = "{glyph}'"#, #""{glyph}'"#),
    (#"text = ""#, #"""#),
  ])
  func quotesAroundAValueAreRemoved(line: String, text: String) throws {
    let parsed = try ConfigParser.parse("[output]\n" + line + "\n", file: "q")
    #expect(parsed.text == text)
  }

  /// A value with spaces or quotes at its ends reads back the same once written with
  /// ``ConfigParser/quotedIfNeeded(_:)`` (the config fuzzer's render → parse check).
  @Test(arguments: [" {glyph} ", "\"{title}\"", "'x", "x'", "{glyph}  ", "plain", ""])
  func quotedValuesReadBack(text: String) throws {
    let line = "[output]\ntext = " + ConfigParser.quotedIfNeeded(text) + "\n"
    #expect(try ConfigParser.parse(line, file: "q").text == text)
  }

  /// A bad value inside quotes: the column still points into the line at the bad field.
  @Test func aQuotedValuesErrorHasTheLinesColumn() {
    let plain = #expect(throws: ConfigError.self) {
      try ConfigParser.parse("[output]\ntext = {glyph} {nope}\n", file: "q")
    }
    let quoted = #expect(throws: ConfigError.self) {
      try ConfigParser.parse("[output]\ntext = \"{glyph} {nope}\"\n", file: "q")
    }
    #expect(plain?.column == 17)
    #expect(quoted?.column == 18, "\(String(describing: quoted))")
    #expect(quoted?.description.hasPrefix("q:2:18: output.text: ") == true)
  }

  /// `title_width` still works, with one warning that names its line; at 0 (as the shipped
  /// reference lists it) it does nothing and says nothing. An empty `text` warns too.
  @Test func deprecatedKeysAndAnEmptyTextWarn() throws {
    let parsed = try ConfigParser.read(
      "[output]\n\ntitle_width = 12\ntext =\n", file: "w.conf")
    #expect(parsed.configuration.titleWidth == 12)
    #expect(
      parsed.warnings.map(\.description) == [
        "w.conf:3: warning: output.title_width is deprecated: put {title:N} in output.text (or text_playing, …) instead",
        "w.conf:4: warning: output.text is empty: a state without a text_<state> of its own shows an empty line (leave the key out for the default, {glyph} {bars} {bubbles})",
      ])
    let quiet = try ConfigParser.read("[output]\ntitle_width = 0\ntext = {bars}\n", file: "w")
    #expect(quiet.warnings.isEmpty)
    let quotedEmpty = try ConfigParser.read("[output]\ntext = \"\"\n", file: "w")
    #expect(quotedEmpty.warnings.count == 1)
  }

  /// Control and invisible characters in an error are escaped: a NUL, an ESC sequence, a C1
  /// control, a byte-order mark and a bidi override never reach stderr raw.
  @Test(arguments: [
    ("[general]\nba\u{0}rs = 1\n", #"x:2: unknown key 'ba\x00rs' in [general]"#),
    ("[general]\n\u{1B}[31mbars = 1\n", #"x:2: unknown key '\x1B[31mbars' in [general]"#),
    ("[gen\u{85}eral]\n", #"x:1: unknown section [gen\u{0085}eral]"#),
    ("[general]\n\u{FEFF}bars = 1\n", #"x:2: unknown key '\u{FEFF}bars' in [general]"#),
    ("[general]\nbars\u{202E} = 1\n", #"x:2: unknown key 'bars\u{202E}' in [general]"#),
    ("[general]\nbars\u{7F}\n", #"x:2: expected 'key = value', got 'bars\x7F'"#),
  ])
  func controlsInMessagesAreEscaped(text: String, prefix: String) {
    let error = #expect(throws: ConfigError.self) { try ConfigParser.parse(text, file: "x") }
    let description = error?.description ?? ""
    #expect(description.hasPrefix(prefix), "\(description)")
    #expect(!description.unicodeScalars.contains { MessageEscaping.needsEscape($0) })
  }

  @Test func escapingNamesTabsAndLineBreaks() {
    #expect(MessageEscaping.escaped("a\tb\nc\rd\\e") == #"a\tb\nc\rd\e"#)
    #expect(MessageEscaping.escaped("ok … ►") == "ok … ►")
    #expect(MessageEscaping.escaped(bytes: [0xFF, 0xC3]) == #"\xFF\xC3"#)
  }
}

/// The keys of `[output]` as an unknown-key error lists them.
enum ConfigTestKeys {
  static var output: String {
    ConfigKeys.all.filter { $0.section == "output" }.map(\.key).joined(separator: ", ")
  }
}

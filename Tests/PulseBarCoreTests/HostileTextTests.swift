import Foundation
import Testing

@testable import PulseBarCore

/// Track titles are chosen by whoever publishes a player (a web page, through the browser):
/// every format and markup must hand its reader the title as text, never as markup, a polybar
/// action or colour, an ANSI sequence or a line break. Each line is read here as its consumer
/// reads it (polybar's `%{` tags, Pango markup, JSON, a terminal).
@Suite struct HostileTextTests {
  static let hostileTitles: [String] = [
    #"<span foreground="red">red</span> & <b>bold"#,
    "%{A1:touch /tmp/pwned:}CLICKME%{A}",
    "%{A1:touch /tmp/pwned:}CLICKME",
    "%%{F#f00}red%%{F-}",
    "ends with a percent %",
    "{starts with a brace",
    "\u{1B}[31mred\u{1B}[0m\u{1B}]0;title\u{7}",
    "line\nbreak\rreturn\ttab\u{2028}separator\u{2029}paragraph",
    "\u{202E}evil\u{202C} \u{2066}isolate\u{2069}",
    "\u{9B}31m C1 CSI \u{85} NEL \u{7F} DEL",
    String(decoding: [0x41, 0xFF, 0xC3, 0x28, 0x42, 0xE2, 0x82], as: UTF8.self),
    String(repeating: "%{A1:x:}", count: 1250) + "tail",
  ]

  static let configurations: [(OutputFormat, Markup)] = [
    (.text, .none), (.text, .pango), (.text, .polybar), (.text, .ansi),
    (.waybar, .none), (.waybar, .pango), (.json, .none),
  ]

  static func hostileLine(_ format: OutputFormat, _ markup: Markup, title: String) -> String? {
    let player = NowPlaying(
      player: "evil%{A1:x:}", status: .playing, title: title, artist: "<b>\u{1B}[1m",
      album: "%{F#f00}")
    return RenderTests.line(format, bars: [0.2, 0.5, 0.9], nowPlaying: player) {
      $0.titleWidth = 60
      $0.markup = markup
      $0.tooltip = "{state} {title} {artist} {album} {player} {source}"
    }
  }

  @Test(arguments: configurations)
  func noTitleBecomesMarkupOrControl(format: OutputFormat, markup: Markup) throws {
    for title in Self.hostileTitles {
      let line = try #require(Self.hostileLine(format, markup, title: title))
      let context = "\(format) \(markup) \(title.prefix(40).debugDescription): \(line.prefix(300))"
      #expect(line.utf8.count < 8192, "\(context)")
      #expect(line.hasSuffix("\n") && !line.dropLast().contains("\n"), "\(context)")
      let controls = Self.controls(in: String(line.dropLast()))
      #expect(controls.isEmpty, "\(context): \(controls)")
      // polybar parses every line of a script's output for `%{` tags: the only ones are
      // polybar's empty tag that breaks a `%{` and, in polybar markup, pulsebar's colours.
      if format == .text && markup != .ansi {
        for tag in UntrustedText.polybarTags(in: line) {
          #expect(
            tag == "O0" || (markup == .polybar && (tag == "F-" || tag.hasPrefix("F#"))),
            "\(context): %{\(tag)}")
        }
      }
      var visible: String
      switch format {
      case .text where markup == .pango:
        visible = try PangoReader.text(line)
      case .text:
        visible = line
      case .waybar:
        let object = try Self.jsonObject(line)
        visible = try PangoReader.text(try #require(object["text"] as? String))
        let tooltip = try PangoReader.text(try #require(object["tooltip"] as? String))
        #expect(Self.controls(in: tooltip).isEmpty, "\(context)")
        #expect(tooltip.contains("<b>") && tooltip.contains("%{F#f00}"), "\(context): \(tooltip)")
      case .json:
        let object = try Self.jsonObject(line)
        // json carries the raw value (cut at the bus boundary's 1,000 bytes).
        #expect(object["title"] as? String == UntrustedText.capped(title), "\(context)")
        #expect(object["artist"] as? String == "<b>\u{1B}[1m", "\(context)")
        continue
      case .raw:
        continue
      }
      // The title's first visible characters are shown as text.
      let expected = UntrustedText.sanitized(title).prefix(20)
      // Less polybar's empty tags that break `%{` (no cell; listen takes them out elsewhere).
      let shown = visible.replacing("%{O0}", with: "")
      #expect(shown.contains(expected), "\(context): \(shown.debugDescription)")
    }
  }

  /// polybar's empty tag `%{O0}` breaks `%{` (drawn as nothing, counted as nothing), only
  /// where a `%{` could form: inside a value, before a leading `{`, after a trailing `%`. A
  /// lone `{`, `}` or `%` stays as it is, and Pango and ANSI lines are not polybar's.
  @Test func polybarSequencesAreBrokenByAnEmptyTag() {
    #expect(
      UntrustedText.escaped("%{A1:cmd:}x%{A}", as: .textLine) == "%%{O0}{A1:cmd:}x%%{O0}{A}")
    #expect(UntrustedText.escaped("{x}", as: .textLine) == "%{O0}{x}")
    #expect(UntrustedText.escaped("100%", as: .polybarLine) == "100%%{O0}")
    #expect(UntrustedText.escaped("a {b} 5% c}", as: .textLine) == "a {b} 5% c}")
    #expect(
      UntrustedText.escaped("{title} {lyric} {{x}}", as: .textLine)
        == "%{O0}{title} {lyric} {{x}}")
    #expect(UntrustedText.escaped("100% Pure", as: .pango) == "100% Pure")
    #expect(UntrustedText.escaped("%{F#f00} 5%", as: .pango) == "&#37;{F#f00} 5&#37;")
    #expect(UntrustedText.escaped("{x}", as: .pango) == "&#123;x}")
    #expect(UntrustedText.escaped("%{F#f00}", as: .terminalLine) == "%{F#f00}")
    for markup in [VisibleCells.Markup.none, .polybar] {
      #expect(
        VisibleCells.count(
          Array(UntrustedText.escaped("%{A}50%", as: .textLine).utf8),
          markup: markup) == 7)
    }
    #expect(UntrustedText.escaped("a<b>&", as: .pango) == "a&lt;b&gt;&amp;")
    #expect(UntrustedText.escaped("\"a\"\n\u{9B}", as: .pangoInJSON) == #"\"a\"  "#)
    #expect(UntrustedText.escaped("\"a\"\n\u{9B}\u{202E}", as: .json) == #"\"a\"\n\u009b\u202e"#)
  }

  /// polybar draws each member of an emoji ZWJ sequence (the family 50 px wider than the 2
  /// cells counted): a text line holds the first emoji only (and its VS16), Pango keeps it.
  @Test func joinedEmojiAreTheirFirstEmojiInATextLine() {
    let family = "👩\u{200D}👩\u{200D}👧\u{200D}👦"
    let rainbow = "🏳\u{FE0F}\u{200D}🌈"
    let coder = "👩🏽\u{200D}💻"
    #expect(UntrustedText.escaped(family + " Family", as: .textLine) == "👩 Family")
    #expect(UntrustedText.escaped(family + " Family", as: .polybarLine) == "👩 Family")
    #expect(UntrustedText.escaped("a" + rainbow + "b", as: .textLine) == "a🏳\u{FE0F}b")
    #expect(UntrustedText.escaped(coder, as: .textLine) == "👩")
    // A skin tone is a swatch of its own in polybar: the emoji alone.
    #expect(UntrustedText.escaped("👍🏽 ok", as: .polybarLine) == "👍 ok")
    #expect(UntrustedText.escaped("👍🏽 ok", as: .pango) == "👍🏽 ok")
    // A flag, which polybar draws as two emoji-wide letters, is its two letters there.
    #expect(UntrustedText.escaped("🇫🇷 Tour", as: .polybarLine) == "FR Tour")
    #expect(UntrustedText.escaped("🇫🇷 Tour", as: .textLine) == "🇫🇷 Tour")
    #expect(UntrustedText.escaped(family, as: .pango) == family)
    #expect(UntrustedText.escaped(family, as: .json) == family)
    // A joiner in a script's conjunct is no emoji sequence: kept.
    let conjunct = "क्\u{200D}ष"
    #expect(UntrustedText.escaped(conjunct, as: .textLine) == conjunct)
    for text in [family, rainbow, coder, "🎵" + family + "x"] {
      let escaped = UntrustedText.escaped(text, as: .textLine)
      #expect(!escaped.unicodeScalars.contains("\u{200D}"), "\(text.debugDescription)")
      #expect(TextCells.width(of: escaped) == TextCells.width(of: text), "\(escaped)")
    }
    // In a template field, fitted then escaped: the line keeps its counted width.
    let title = family + " Family"
    let line = RenderTests.line(
      .text, bars: [0.5], nowPlaying: .init(player: "p", status: .playing, title: title)
    ) {
      $0.text = "[{title:12}]"
      $0.markup = .polybar
    }
    #expect(line == "[👩 Family\u{2007}\u{2007}\u{2007}]\n", "\(line.debugDescription)")
  }

  @Test func valuesAreCutOnACharacterBoundary() {
    let accented = String(repeating: "a", count: 999) + "e\u{301}z"
    #expect(UntrustedText.capped(accented) == String(repeating: "a", count: 999))
    let wide = String(repeating: "語", count: 400)  // 3 bytes each
    #expect(UntrustedText.capped(wide) == String(repeating: "語", count: 333))
    #expect(UntrustedText.capped("short") == "short")
    let exact = String(repeating: "b", count: 1000)
    #expect(UntrustedText.capped(exact) == exact)
  }

  @Test func fittingReadsOnlyTheCellsItFills() {
    let huge = String(repeating: "ab", count: 5_000_000)
    #expect(TextCells.fit(huge, cells: 5) == "abab…")
    #expect(TextCells.fit("ab", cells: 4) == "ab\u{2007}\u{2007}")
    #expect(TextCells.fit("語語語", cells: 4) == "語…\u{2007}")
    #expect(TextCells.fit("語語", cells: 4) == "語語")
  }

  // MARK: - Readers

  /// The controls, line breaks and bidi characters in `text` (what a text line must not have).
  static func controls(in text: String) -> [String] {
    text.unicodeScalars.filter { UntrustedText.isControl($0.value) }
      .map { "U+" + String($0.value, radix: 16) }
  }

  static func jsonObject(_ line: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
    return try #require(object as? [String: Any])
  }

}

extension UntrustedText {
  /// `text` escaped for `dialect`, as a string (what ``append(_:as:to:)`` writes).
  /// The tags polybar finds in `line` as it parses it: each `%{` up to its `}`.
  static func polybarTags(in line: String) -> [String] {
    var tags: [String] = []
    var rest = Substring(line)
    while let open = rest.firstRange(of: "%{") {
      guard let close = rest[open.upperBound...].firstIndex(of: "}") else { break }
      tags.append(String(rest[open.upperBound..<close]))
      rest = rest[rest.index(after: close)...]
    }
    return tags
  }

  fileprivate static func escaped(_ text: String, as dialect: Dialect) -> String {
    var line = ByteLine()
    append(text, as: dialect, to: &line)
    return String(decoding: line.bytes, as: UTF8.self)
  }
}

import Testing

@testable import PulseBarCore

/// Widths are visible cells counted per character (grapheme cluster): East Asian wide and
/// emoji pictures 2, ZWJ sequences, variation selectors, modifiers and combining marks one
/// unit with their base, format characters none; and the same count whatever markup the line
/// is in. Checked on fixed cases and on seeded random strings built from them.
@Suite struct TextCellsPropertyTests {
  /// Characters and the cells each takes.
  static let atoms: [(String, Int)] = [
    ("a", 1), ("Z", 1), (" ", 1), ("%", 1), ("{", 1), ("<", 1), ("&", 1), (";", 1),
    ("e\u{301}", 1), ("a\u{308}\u{323}", 1), ("ñ", 1), ("Ø", 1), ("►", 1), ("▁", 1),
    ("\u{2007}", 1), ("…", 1), ("日", 2), ("本", 2), ("語", 2), ("한", 2),
    ("\u{1100}\u{1161}\u{11A8}", 2), ("ア", 2), ("ｱ", 1), ("Ａ", 2), ("。", 2),
    ("👍", 2), ("👍🏽", 2), ("👨‍👩‍👧", 2), ("👩🏽‍💻", 2), ("🏳️‍🌈", 2), ("❤️", 2), ("❤", 1),
    ("☔", 2), ("☔\u{FE0E}", 1), ("1️⃣", 2), ("🇫🇷", 2), ("🇯🇵", 2), ("✔️", 2),
    ("\u{FEFF}", 0), ("\u{200B}", 0), ("\u{7}", 1), ("\u{1B}", 1),
    ("क्षि", 2), ("ก่", 1),
  ]

  @Test func eachCharacterHasItsCells() {
    for (text, cells) in Self.atoms {
      #expect(TextCells.width(of: text) == cells, "\(text.unicodeScalars.map(\.value))")
    }
  }

  /// Random strings: the width is the sum of their characters' (so no cluster is split or
  /// counted twice), `fit` gives exactly the cells asked and never splits a character, and
  /// every markup pulsebar writes around them leaves the count unchanged.
  @Test(arguments: 0..<8)
  func randomStringsKeepTheirWidthInEveryMarkup(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    for _ in 0..<200 {
      var text = ""
      var expected = 0
      for _ in 0..<Int(random.next() % 24) {
        let (atom, cells) = Self.atoms[Int(random.next() % UInt64(Self.atoms.count))]
        text += atom
        expected += cells
      }
      #expect(TextCells.width(of: text) == expected, "\(text.unicodeScalars.map(\.value))")
      #expect(text.reduce(0) { $0 + TextCells.width(of: $1) } == expected)
      let cells = Int(random.next() % 30) + 1
      let fitted = TextCells.fit(text, cells: cells)
      #expect(TextCells.width(of: fitted) == cells, "fit \(text) in \(cells)")
      let kept = fitted.filter { $0 != TextCells.padding && $0 != TextCells.ellipsis }
      let source = text.map { $0.isASCII && $0.asciiValue! < 0x20 ? " " : $0 }
        .filter { $0 != TextCells.padding && $0 != TextCells.ellipsis }
      #expect(Array(kept) == Array(source.prefix(kept.count)), "a character was split")
      let shown = TextCells.width(of: UntrustedText.sanitized(text))
      for (dialect, markup, open, close) in Self.markups {
        var line = ByteLine()
        line.append(Array(open.utf8))
        UntrustedText.append(text, as: dialect, to: &line)
        line.append(Array(close.utf8))
        let counted = VisibleCells.count(line.bytes, markup: markup)
        // polybar's empty tags that break `%{` take no cell, in every markup; shaped
        // right-to-left text may be a ligature shorter (none is generated here).
        #expect(
          counted == shown, "\(markup): \(String(decoding: line.bytes, as: UTF8.self))")
        if markup != .pangoInJSON, markup != .none || !text.contains(where: { "<&%{".contains($0) })
        {
          #expect(VisibleCells.guessedMarkup(of: line.bytes) == markup || text.isEmpty)
        }
      }
    }
  }

  /// Each markup pulsebar writes, with a colour around the value.
  static let markups: [(UntrustedText.Dialect, VisibleCells.Markup, String, String)] = [
    (.textLine, .none, "", ""),
    (.pango, .pango, ##"<span foreground="#ff0000">"##, "</span>"),
    (.polybarLine, .polybar, "%{F#ff0000}", "%{F-}"),
    (.terminalLine, .ansi, "\u{1B}[38;2;255;0;0m", "\u{1B}[39m"),
    (.pangoInJSON, .pangoInJSON, ##"<span foreground=\"#ff0000\">"##, "</span>"),
  ]

  @Test func entitiesAndEscapesAreOneCharacter() {
    #expect(VisibleCells.count(Array("a &amp; b &#8199;&#x65E5;".utf8), markup: .pango) == 9)
    #expect(VisibleCells.count(Array(#"\u65e5\"\\\ud83d\udc4d"#.utf8), markup: .pangoInJSON) == 6)
    #expect(VisibleCells.count(Array("50% %{F-}x%".utf8), markup: .polybar) == 6)
    #expect(VisibleCells.count([0xFF, 0x61], markup: .none) == 2)
  }
}

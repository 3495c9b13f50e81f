import Testing

@testable import PulseBarCore

/// Titles are drawn as they are, in every script and every dialect: only polybar's tag opener
/// `%{` is broken (with an empty tag polybar draws as nothing), text is NFC, right-to-left
/// values are isolated for readers that do bidi and put in display order for those that do
/// not (polybar, the ANSI view).
@Suite struct TitleScriptsTests {
  /// What a reader shows of a rendered text line: polybar drops every `%{…}` tag, Pango
  /// reads tags and entities, a terminal skips ANSI sequences.
  static func shown(_ line: String, markup: Markup) throws -> String {
    switch markup {
    case .none, .polybar:
      var shown = ""
      var rest = Substring(line)
      while let open = rest.firstRange(of: "%{") {
        shown += rest[..<open.lowerBound]
        guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
          rest = rest[open.lowerBound...]
          break
        }
        rest = rest[rest.index(after: close)...]
      }
      return shown + rest
    case .pango: return try PangoReader.text(line)
    case .ansi:
      var shown = ""
      var escape = false
      for scalar in line.unicodeScalars {
        if escape {
          if (0x40...0x7E).contains(scalar.value) && scalar != "[" { escape = false }
        } else if scalar == "\u{1B}" {
          escape = true
        } else {
          shown.unicodeScalars.append(scalar)
        }
      }
      return shown
    }
  }

  /// Titles holding `{`, `}`, `%`, `%%{` and `%{` at every position, in templates whose
  /// own text puts a `%` right before the field and a `{` right after it: every reader shows
  /// the title's characters, no other, and polybar finds no tag but its empty one and
  /// pulsebar's colours.
  @Test(arguments: [Markup.none, .polybar, .pango, .ansi])
  func bracesAndPercentsAtEveryPositionAreDrawnAsThemselves(markup: Markup) throws {
    let pieces = ["{", "}", "%", "%%{", "%{", "a", "{{", "%}"]
    var titles: [String] = ["{title} {lyric} {{x}}", "%{F#f00}red", "{title} {{x}} 100%{F-}"]
    for first in pieces {
      for second in pieces {
        titles.append(first + second)
        titles.append("x" + first + "y" + second)
        titles.append(first + "mid" + second)
      }
    }
    for template in ["100%{title}{{", "{title}", "%{title:30}%", "a%{title:4:scroll}{{b"] {
      for title in titles {
        let line = try #require(
          RenderTests.line(
            .text, bars: [0.5], nowPlaying: .init(player: "p", status: .playing, title: title)
          ) {
            $0.text = template
            $0.markup = markup
          })
        let body = String(line.dropLast())
        let context = "\(markup) \(template) \(title.debugDescription): \(body.debugDescription)"
        let expected = try #require(try? Template(parsing: template)).text {
          $0 == .title ? title : nil
        }
        let shown = try Self.shown(body, markup: markup).filter {
          $0 != TextCells.padding && $0 != TextCells.ellipsis
        }
        if !template.contains(":") {
          #expect(shown == expected, "\(context)")
        } else {
          // A fitted or scrolling field shows a window of the title: the template's own text
          // around it, and only characters the title has between.
          let literals = Set("100%a{b")
          #expect(shown.allSatisfy { literals.contains($0) || title.contains($0) }, "\(context)")
        }
        if markup == .none || markup == .polybar {
          for tag in UntrustedText.polybarTags(in: body) {
            #expect(tag == "O0" || (markup == .polybar && tag.hasPrefix("F")), "\(context)")
          }
        }
      }
    }
  }

  /// Decomposed text (Vietnamese typed with combining marks) is composed before it is counted
  /// and drawn: polybar drew each mark as a cell of its own.
  @Test(arguments: [Markup.none, .polybar, .pango, .ansi])
  func decomposedTitlesAreComposed(markup: Markup) throws {
    let decomposed = "Tie\u{0302}\u{0301}ng Vie\u{0323}\u{0302}t"
    let composed = "Tiếng Việt"
    #expect(UntrustedText.capped(decomposed) == composed)
    #expect(UntrustedText.capped(decomposed).unicodeScalars.count == 10)
    let line = try #require(
      RenderTests.line(
        .text, bars: [0.5], nowPlaying: .init(player: "p", status: .playing, title: decomposed)
      ) {
        $0.text = "[{title}]"
        $0.markup = markup
      })
    #expect(line.unicodeScalars.contains("\u{1EC7}"), "\(line.debugDescription)")
    #expect(!line.unicodeScalars.contains("\u{0323}"), "\(line.debugDescription)")
  }

  /// A reader that does bidi (Pango, terminals) gets a right-to-left value isolated, so it
  /// never moves what is beside it; a left-to-right value is written as it was.
  @Test(arguments: [
    (OutputFormat.text, Markup.none), (.text, .pango), (.waybar, .none),
  ])
  func rightToLeftValuesAreIsolatedForBidiReaders(format: OutputFormat, markup: Markup) throws {
    for title in ["مرحبا بالعالم", "שלום עולם", "Hello עולם 12"] {
      let line = try #require(
        RenderTests.line(
          format, bars: [0.5], nowPlaying: .init(player: "p", status: .playing, title: title)
        ) {
          $0.text = "{glyph} {title} {position}"
          $0.markup = markup
        })
      let context = "\(format) \(markup) \(title): \(line.debugDescription)"
      let isolated = "\u{2068}" + title + "\u{2069}"
      #expect(line.contains(isolated), "\(context)")
    }
    let latin = try #require(
      RenderTests.line(
        format, bars: [0.5], nowPlaying: .init(player: "p", status: .playing, title: "Plain")
      ) {
        $0.text = "{title}"
        $0.markup = markup
      })
    #expect(!latin.unicodeScalars.contains("\u{2068}"))
    // Isolates take no cell.
    #expect(VisibleCells.count(Array("\u{2068}ab\u{2069}".utf8), markup: .none) == 2)
  }

  /// polybar and the ANSI view do no bidi: a Hebrew value is written in display order
  /// (reversed), an Arabic one in display order and shaped into joined presentation forms,
  /// digits in a right-to-left run keep their own order. Needs libfribidi0.
  @Test func rightToLeftValuesAreInDisplayOrderForReadersWithoutBidi() throws {
    try #require(BidiText.isAvailable, "libfribidi.so.0 is part of the test stack")
    #expect(BidiText.visual("שלום") == "םולש")
    #expect(BidiText.visual("Plain text") == "Plain text")
    #expect(BidiText.visual("שיר 12") == "12 ריש")
    // بيت: beh initial, yeh medial, teh final, drawn right to left.
    #expect(BidiText.visual("بيت") == "\u{FE96}\u{FEF4}\u{FE91}")
    // لا is one ligature: a character fewer, and the line counts what is drawn.
    let lamAlef = BidiText.visual("لا")
    #expect(lamAlef == "\u{FEFB}")
    for markup in [Markup.polybar, .ansi] {
      let line = try #require(
        RenderTests.line(
          .text, bars: [0.5], nowPlaying: .init(player: "p", status: .playing, title: "بيت 5")
        ) {
          $0.text = "[{title}]"
          $0.markup = markup
        })
      #expect(line.contains("[5 \u{FE96}\u{FEF4}\u{FE91}]"), "\(markup): \(line.debugDescription)")
      #expect(!line.unicodeScalars.contains("\u{2068}"))
    }
  }
}

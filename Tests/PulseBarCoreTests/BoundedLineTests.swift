import Testing

@testable import PulseBarCore

/// i3blocks 1.4 keeps 1,024 bytes of a line and cuts inside a character or a tag (swaybar then
/// blanks the bar): `listen` hands it an over-long line as ``BoundedLine`` makes it. Checked on
/// lines the renderer really writes (long titles in several fields, Pango gradients over many
/// bars, hostile and multi-byte characters) and on arbitrary bytes.
@Suite struct BoundedLineTests {
  /// What random titles are made of: wide, joined and combining characters, markup and
  /// polybar's `%{`.
  static let atoms = [
    "a", "Song ", "é", "e\u{301}", "東京", "の", "👩\u{200D}👩\u{200D}👧", "🎵", "🇫🇷", "&", "<b>",
    ">", "%{F#f00}", "\"", "'", "\u{2007}", "क्ष", ";", "&amp;",
  ]

  /// A random title of about `bytes` bytes.
  static func title(_ random: inout SeededRandom, bytes: Int) -> String {
    var title = ""
    while title.utf8.count < bytes {
      title += atoms[Int(random.next() % UInt64(atoms.count))]
    }
    return title
  }

  /// Seeded lines from the renderer, in Pango and without markup, most of them over 1,000
  /// bytes: each comes out within the bytes, valid UTF-8, valid Pango when it was, its text
  /// without tags a prefix of the line's (whole characters, whole entities), as wide as the
  /// line when that text fits.
  @Test(arguments: 0..<6)
  func overLongRenderedLinesComeOutSafe(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    var overLong = 0
    for round in 0..<60 {
      let pango = round % 3 != 2
      let title = Self.title(&random, bytes: Int(random.next() % 1100))
      let artist = Self.title(&random, bytes: Int(random.next() % 400))
      let bars = Int(random.next() % 96) + 1
      let player = NowPlaying(player: "p", status: .playing, title: title, artist: artist)
      let values = (0..<bars).map { Float(($0 * 37) % 100) / 100 }
      let rendered = try #require(
        RenderTests.line(.text, bars: values, nowPlaying: player) {
          $0.bars = bars
          $0.markup = pango ? .pango : .none
          $0.text = "{glyph} {bars} {title} – {artist} {title}"
          $0.barColors = ["#89b4fa", "#cba6f7", "#f38ba8"].compactMap { RGBColor(parsing: $0) }
        })
      let line = Array(rendered.utf8.dropLast())
      let fitted = BoundedLine.fitted(line, maximumBytes: BoundedLine.i3blocksBytes)
      let context = "seed \(seed) round \(round): \(line.count) bytes, \(bars) bars"
      #expect(fitted.count <= BoundedLine.i3blocksBytes, "\(context)")
      let text = try #require(String(validating: fitted, as: UTF8.self), "\(context)")
      guard line.count > BoundedLine.i3blocksBytes else {
        #expect(fitted == line, "\(context): a line that fits was changed")
        continue
      }
      overLong += 1
      // listen reads the markup from the line (a plain title holding `&amp;` looks like Pango).
      let guessed = VisibleCells.guessedMarkup(of: line) == .pango
      if pango {
        #expect(guessed, "\(context)")
        _ = try PangoReader.text(text)
      }
      let raw = String(rendered.dropLast())
      let visible = guessed ? BoundedLine.withoutTags(raw) : raw
      let kept = text.reversed().drop { $0 == TextCells.padding }.reversed()
      #expect(visible.starts(with: kept), "\(context): not a prefix: \(text.prefix(300))")
      let markup: VisibleCells.Markup = guessed ? .pango : .none
      let cells = VisibleCells.count(line, markup: markup)
      let keptCells = VisibleCells.count(fitted, markup: markup)
      #expect(keptCells <= cells, "\(context)")
      if visible.utf8.count <= BoundedLine.i3blocksBytes {
        #expect(keptCells == cells, "\(context): \(keptCells) of \(cells) cells")
      }
    }
    #expect(overLong >= 30, "only \(overLong) of 60 lines were over 1,000 bytes")
  }

  /// Arbitrary bytes (cut tags, lone `&`, invalid UTF-8): still within the bytes and UTF-8.
  @Test func arbitraryBytesComeOutWithinTheBytesAndValid() {
    var random = SeededRandom(seed: 7)
    let pieces: [[UInt8]] = [
      Array("<span foreground=\"#ff0000\">".utf8), Array("</span>".utf8), Array("&amp;".utf8),
      Array("&".utf8), Array("<".utf8), Array("東".utf8), [0xFF], [0xE6, 0x9D], [0xC3],
      Array("x".utf8), Array("e\u{301}".utf8), Array("&#8199;".utf8),
    ]
    for _ in 0..<500 {
      var line: [UInt8] = []
      let target = Int(random.next() % 3000)
      while line.count < target { line += pieces[Int(random.next() % UInt64(pieces.count))] }
      let maximum = Int(random.next() % 1100) + 1
      let fitted = BoundedLine.fitted(line, maximumBytes: maximum)
      if line.count > maximum {
        #expect(fitted.count <= maximum)
        #expect(String(validating: fitted, as: UTF8.self) != nil)
      } else {
        #expect(fitted == line)
      }
    }
  }

  /// A gradient's spans go, the text and the width stay; a cut falls between characters and
  /// before an entity it would split.
  @Test func tagsGoEntitiesStayWhole() {
    let span = ##"<span foreground="#89b4fa">▆</span>"##
    let line = Array(("► " + String(repeating: span, count: 40) + " A &amp; B").utf8)
    #expect(line.count > 1000)
    let fitted = BoundedLine.fitted(line, maximumBytes: 1000)
    #expect(
      String(decoding: fitted, as: UTF8.self) == "► " + String(repeating: "▆", count: 40)
        + " A &amp; B")
    let entities = Array(("<b>" + String(repeating: "x&amp;", count: 200) + "</b>").utf8)
    let cut = String(decoding: BoundedLine.fitted(entities, maximumBytes: 100), as: UTF8.self)
    // 16 pairs and an x in 97 bytes, one figure space in the 3 left.
    #expect(cut == String(repeating: "x&amp;", count: 16) + "x\u{2007}", "\(cut)")
    let wide = Array(String(repeating: "東", count: 400).utf8)
    let cutWide = BoundedLine.fitted(wide, maximumBytes: 1000)
    #expect(cutWide == Array(String(repeating: "東", count: 333).utf8))
  }
}

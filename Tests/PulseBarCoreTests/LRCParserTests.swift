import Testing

@testable import PulseBarCore

/// The LRC parser on what lyric files really hold, and the line shown at exact positions.
@Suite struct LRCParserTests {
  /// `(seconds, text)` of each line.
  static func timed(_ lyric: SyncedLyric?) -> [(Double, String)] {
    (lyric?.lines ?? []).map { (SyncedLyric.seconds($0.milliseconds), $0.text) }
  }

  @Test func readsTimeTagsInEveryPrecision() throws {
    let lyric = try #require(
      LRCParser.parse("[00:01]one\n[00:02.5]two\n[00:03.25]three\n[00:04.125]four\n[1:05:50]five"))
    #expect(Self.timed(lyric).map(\.0) == [1, 2.5, 3.25, 4.125, 65.5])
    #expect(Self.timed(lyric).map(\.1) == ["one", "two", "three", "four", "five"])
    #expect(lyric.malformedLines == 0)
  }

  @Test func severalTagsOnOneLineRepeatItsText() throws {
    let lyric = try #require(
      LRCParser.parse("[00:10.00][00:40.00] Chorus, chorus\n[00:20.00]Verse\n"))
    #expect(Self.timed(lyric).map(\.0) == [10, 20, 40])
    #expect(Self.timed(lyric).map(\.1) == ["Chorus, chorus", "Verse", "Chorus, chorus"])
  }

  @Test func headersAreReadNotShown() throws {
    let text = """
      \u{FEFF}[ar: The Band]\r
      [ti:First Song]\r
      [al:Debut]\r
      [length: 3:25.50]\r
      [by:someone]\r
      [re:some editor]\r
      [00:01.00]Hello\r
      """
    let lyric = try #require(LRCParser.parse(text))
    #expect(lyric.artist == "The Band")
    #expect(lyric.title == "First Song")
    #expect(lyric.album == "Debut")
    #expect(lyric.length == 205.5)
    #expect(Self.timed(lyric).map(\.1) == ["Hello"])
    #expect(lyric.malformedLines == 0)
  }

  @Test(arguments: [
    ("[offset:+500]", 1.5, Int64(500)), ("[offset:-250]", 2.25, -250), ("[offset:0]", 2, 0),
  ])
  func offsetMovesEveryLine(header: String, expected: Double, offset: Int64) throws {
    let lyric = try #require(LRCParser.parse("\(header)\n[00:02.00]x\n[00:00.20]first"))
    #expect(lyric.offsetMilliseconds == offset)
    #expect(Self.timed(lyric).last?.0 == expected)
    // A line the offset would put before the start is at the start.
    #expect(lyric.lines.first?.milliseconds == max(0, 200 - offset))
  }

  @Test func malformedLinesAreSkippedAndCounted() throws {
    let text = """
      [00:01.00]good
      no tag at all
      [00:61.00]sixty-one seconds
      [00:02.0000]four fraction digits
      [123456:00.00]six minute digits
      [00:03.00
      [12 34]
      [:value]
      [offset:fast]
      [length:long]

      [00:04.00]also good
      """
    let lyric = try #require(LRCParser.parse(text))
    #expect(Self.timed(lyric).map(\.1) == ["good", "also good"])
    #expect(lyric.malformedLines == 9)
  }

  @Test func wordTimesAreRemovedAndBlankLinesKept() throws {
    let lyric = try #require(
      LRCParser.parse("[00:01.00]<00:01.00>Hello <00:01.50>world <x>\n[00:03.00]\n"))
    #expect(Self.timed(lyric).map(\.1) == ["Hello world <x>", ""])
    #expect(lyric.text(at: 2) == "Hello world <x>")
    #expect(lyric.text(at: 3) == nil, "a bare time tag clears the line")
  }

  @Test func textWithoutTimeTagsIsNoLyric() {
    #expect(LRCParser.parse("") == nil)
    #expect(LRCParser.parse("Just the words\nof a song\n") == nil)
    #expect(LRCParser.parse("[ar:Someone]\n[ti:Something]") == nil)
  }

  @Test func sameTimeKeepsTheFirstLine() throws {
    let lyric = try #require(LRCParser.parse("[00:05.00]original\n[00:05.00]translation"))
    #expect(Self.timed(lyric).map(\.1) == ["original"])
  }

  @Test func everyValueIsBounded() throws {
    let long = String(repeating: "é", count: 5000)
    let lyric = try #require(LRCParser.parse("[99999:59.999]\(long)\n[offset:-86400000]"))
    #expect(lyric.lines[0].milliseconds == LRCParser.maximumMilliseconds)
    #expect(lyric.lines[0].text.utf8.count <= UntrustedText.maximumBytes)
    #expect(LRCParser.parse("[offset:86400001]\n[00:01]x")?.malformedLines == 1)
    let many = String(repeating: "[00:01]", count: 20_000) + "x"
    #expect(LRCParser.parse(many)?.lines.count == 1)
    let distinct = (0..<12_000).map { "[\($0 / 60):\($0 % 60)]l" }.joined(separator: "\n")
    #expect(LRCParser.parse(distinct)?.lines.count == LRCParser.maximumLines)
  }

  // MARK: - The line at a position

  @Test func lineAtExactTimes() throws {
    let lyric = try #require(LRCParser.parse("[00:01.00]one\n[00:02.50]two\n[00:04.00]three"))
    #expect(lyric.text(at: 0) == nil, "before the first line")
    #expect(lyric.text(at: 0.999) == nil)
    #expect(lyric.text(at: 1) == "one", "shown at its tag exactly")
    #expect(lyric.text(at: 2.499) == "one")
    #expect(lyric.text(at: 2.5) == "two")
    #expect(lyric.text(at: 100) == "three", "the last line stays")
    #expect(lyric.text(at: .nan) == nil)
    #expect(lyric.text(at: -.infinity) == nil)
    #expect(lyric.text(at: .infinity) == "three")
    #expect(lyric.nextChange(after: 0) == 1)
    #expect(lyric.nextChange(after: 1) == 2.5)
    #expect(lyric.nextChange(after: 3.9) == 4)
    #expect(lyric.nextChange(after: 4) == nil)
  }
}

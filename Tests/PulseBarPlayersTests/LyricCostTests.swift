import Glibc
import PulseBarCore
import PulseBarSystem
import Testing

@testable import PulseBarPlayers

/// What a hostile player's `xesam:asText` may cost: a 40,000-line LRC (0.6 MB) that differs in
/// every Metadata message, 24 a second, once pinned a core parsing it. With exact times: it is
/// parsed within ``LyricFinder/parseBudget``, only when it changed, the latest text winning.
@Suite struct LyricCostTests {
  /// 40,000 timed lines, the first one saying `mark`.
  static func flood(_ mark: Int) -> String {
    var text = "[00:00.00]\(mark)\n"
    for line in 0..<40_000 { text += "[\(1 + line / 6000):\(line / 100 % 60).\(line % 100)]line\n" }
    return text
  }

  static func track(_ text: String?) -> LyricFinder.Track {
    .init(url: nil, artist: "Hostile", title: "Flood", text: text)
  }

  /// CPU time of this thread, in seconds.
  static func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  @Test func aChangingFloodIsParsedWithinTheBudget() throws {
    let texts = (0..<4).map(Self.flood)
    var finder = LyricFinder(directory: nil, reloads: Mailbox(nil))
    var parses = 0
    let seconds = 10.0
    let start = Self.cpuSeconds()
    for message in 0..<Int(seconds * 24) {
      let now = Double(message) / 24
      _ = finder.lyric(for: Self.track(texts[message % 4]), at: now) { line in
        if line.contains("from the player's xesam:asText") { parses += 1 }
      }
    }
    let cpu = Self.cpuSeconds() - start
    let bytes = Double(texts[0].utf8.count)
    let allowed = (LyricFinder.parseBudget.burst + seconds * LyricFinder.parseBudget.perSecond)
    #expect(parses >= 1 && Double(parses) * bytes <= allowed, "\(parses) parses of \(bytes) B")
    // Beyond its parses, the flood costs next to nothing (comparing texts); each parse costs
    // what one alone does in this build (a debug build parses several times slower than the
    // daemon's 40 ms).
    let parseStart = Self.cpuSeconds()
    _ = LRCParser.parse(texts[0])
    let oneParse = Self.cpuSeconds() - parseStart
    #expect(cpu <= Double(parses) * oneParse * 1.5 + 0.1, "\(cpu) s for \(parses) parses")
    print(
      "asText flood: \(parses) parses in \(seconds) s, \(Int(cpu * 1000)) ms of CPU "
        + "(one parse \(Int(oneParse * 1000)) ms)")
    // The flood stops: the latest text is parsed when its turn comes, and nothing after.
    let last = Self.track(texts[3])
    let due = try #require(finder.nextDue)
    #expect(due > seconds && due <= seconds + bytes / LyricFinder.parseBudget.perSecond)
    let lyric = finder.lyric(for: last, at: due) { _ in }
    #expect(lyric?.lines.first?.text == "3")
    #expect(finder.nextDue == nil)
  }

  @Test func theSameTextIsParsedOnce() {
    var finder = LyricFinder(directory: nil, reloads: Mailbox(nil))
    var parses = 0
    let text = "[00:01.00]one\n[00:02.00]two"
    for second in 0..<100 {
      let lyric = finder.lyric(for: Self.track(text), at: Double(second) / 10) { _ in parses += 1 }
      #expect(lyric?.lines.count == 2)
    }
    #expect(parses == 1)
    let other = LyricFinder.Track(url: nil, artist: "Other", title: "Song", text: text)
    let again = finder.lyric(for: other, at: 11) { _ in parses += 1 }
    #expect(again?.lines.count == 2 && parses == 2, "another track parses its text")
  }

  @Test func aTextOverTheLimitIsNotParsed() {
    var finder = LyricFinder(directory: nil, reloads: Mailbox(nil))
    let text = "[00:01.00]" + String(repeating: "x", count: LyricFinder.maximumBytes)
    #expect(finder.lyric(for: Self.track(text), at: 0) { _ in } == nil)
    #expect(finder.nextDue == nil)
  }
}

/// A read the system refused for a moment is tried again, 1 s after, doubling to 30 s, for the
/// same track only; the failures that say so.
@Suite struct ReadRetryTests {
  @Test func theScheduleDoublesForTheSameTrack() {
    var retry = ReadRetry()
    #expect(retry.nextDue == nil)
    var now = 100.0
    var waits: [Double] = []
    for _ in 0..<7 {
      retry.failed("a", at: now)
      let due = retry.nextDue!
      #expect(retry.waits("a", at: due - 0.001) && !retry.waits("a", at: due))
      #expect(!retry.waits("b", at: now), "another track does not wait")
      waits.append(due - now)
      now = due
    }
    #expect(waits == [1, 2, 4, 8, 16, 30, 30])
    retry.failed("b", at: now)
    #expect(retry.nextDue == now + 1, "a new track starts again at 1 s")
    retry.settled()
    #expect(retry.nextDue == nil)
  }

  @Test func transientFailures() {
    for code in [EMFILE, ENFILE, EAGAIN, EINTR, ENOMEM, ENOBUFS] {
      #expect(RegularFile.Failure.system(Errno(rawValue: code)).isTransient)
    }
    for failure in [
      RegularFile.Failure.missing, .notRegular("a FIFO"), .tooLarge(1),
      .system(Errno(rawValue: EACCES)), .system(Errno(rawValue: EIO)),
    ] {
      #expect(!failure.isTransient, "\(failure)")
    }
  }
}

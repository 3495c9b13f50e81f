import Testing

@testable import PulseBarCore

/// Every number a player sends, over its whole range, through ``PlayerValueBounds``,
/// ``PlaybackPosition`` and the rendered `{position}`, `{length}` and `{progress}` fields: no
/// value traps, and what comes out stays inside the documented ranges.
@Suite struct PlayerValueBoundsTests {
  /// Positions at the edges of `Int64` and of the bounds, as the bus can carry them.
  static let edgePositions: [Int64] = [
    .min, .min + 1, -1_000_000, -1, 0, 1, 999_999, 1_000_000, 61_500_000,
    PlayerValueBounds.maximumPositionMicroseconds - 1,
    PlayerValueBounds.maximumPositionMicroseconds,
    PlayerValueBounds.maximumPositionMicroseconds + 1, Int64(1) << 53, (Int64(1) << 53) + 1,
    .max / 1_000_000, .max / 1000, .max - 1, .max,
  ]
  /// Rates and lengths: ±0, ±inf, NaN, subnormals, the largest and smallest doubles, rates that
  /// flip sign.
  static let edgeDoubles: [Double] = [
    -.infinity, -.greatestFiniteMagnitude, -1e308, -2, -1, -.leastNonzeroMagnitude, -0.0, 0,
    .leastNonzeroMagnitude, .leastNormalMagnitude, 1e-300, 1.0 / 128, 1.0 / 64, 0.5, 1, 1.5, 2,
    64, 65, 1e6, 1e18, 1e308, .greatestFiniteMagnitude, .infinity, .nan, -.nan,
    .signalingNaN,
  ]
  /// Monotonic times: the start, a frame, an hour, days and months later, and absurd ones.
  static let edgeTimes: [Double] = [
    0, 1.0 / 60, 1, 3600, 86_400 * 3, 86_400 * 400, 1e12, 1e300, .infinity, .nan, -1, -.infinity,
  ]

  @Test func positionsAreClampedOrLeftOut() {
    #expect(PlayerValueBounds.position(microseconds: .min) == nil)
    #expect(PlayerValueBounds.position(microseconds: -1) == nil)
    #expect(PlayerValueBounds.position(microseconds: 0) == 0)
    #expect(PlayerValueBounds.position(microseconds: 61_500_000) == 61_500_000)
    #expect(
      PlayerValueBounds.position(microseconds: .max)
        == PlayerValueBounds.maximumPositionMicroseconds)
  }

  @Test(arguments: edgeDoubles)
  func ratesAreFiniteAndInRange(rate: Double) {
    let bounded = PlayerValueBounds.rate(rate)
    #expect(PlayerValueBounds.rateRange.contains(bounded), "\(rate) -> \(bounded)")
    if !rate.isFinite || rate <= 0 { #expect(bounded == 1, "\(rate) counts as normal speed") }
    if PlayerValueBounds.rateRange.contains(rate) { #expect(bounded == rate) }
  }

  /// The crash the issue reports: a `Position` near `Int64.max`, a status change re-anchors it
  /// (the `Int64` conversion that trapped), and `Seeked(Int64.max)` then a status change.
  @Test func theReportedCrashValuesStayInRange() {
    var position = PlaybackPosition(
      microseconds: .max - 1, at: 100, rate: 1e308, status: .playing)
    position.statusChanged(to: .paused, at: 100 + 86_400 * 3)
    #expect(position.microseconds == PlayerValueBounds.maximumPositionMicroseconds)
    position.seeked(to: .max, at: 200)
    position.statusChanged(to: .playing, at: 300)
    position.rateChanged(to: .greatestFiniteMagnitude, at: 1e9)
    #expect(position.seconds(at: 1e12) == PlayerValueBounds.maximumPositionSeconds)
    #expect(position.nextVisibleChange(after: 1e12) == nil, "nothing moves past the maximum")
  }

  /// Every edge combination, then random bit patterns over the whole of `Int64` and `Double`.
  @Test func everyCombinationStaysInRange() {
    for microseconds in Self.edgePositions {
      for rate in Self.edgeDoubles {
        for length in Self.edgeDoubles + [200] {
          Self.check(microseconds: microseconds, rate: rate, length: length, times: Self.edgeTimes)
        }
      }
    }
    var random = SeededRandom(seed: 26)
    for _ in 0..<20_000 {
      let microseconds = Int64(bitPattern: random.next())
      let rate = Double(bitPattern: random.next())
      let length = Double(bitPattern: random.next())
      let times = (0..<4).map { _ in Double(random.next() >> 11) * 0x1p-53 * 1e7 }.sorted()
      Self.check(microseconds: microseconds, rate: rate, length: length, times: times)
    }
  }

  /// Renders the position fields with the same values, the length as the bus boundary leaves
  /// it: a clock, a clock and a progress bar of exactly ten cells, in text and json. Raw
  /// lengths (never let in by the boundary) render without trapping too.
  @Test func renderedFieldsStayWellFormed() throws {
    var random = SeededRandom(seed: 126)
    var cases: [(Int64, Double, Double)] = []
    for microseconds in Self.edgePositions {
      for rate in [-1, 0, 1e308, .nan, 1] as [Double] { cases.append((microseconds, rate, 200)) }
      for length in Self.edgeDoubles { cases.append((microseconds, 1, length * 1e6)) }
    }
    for _ in 0..<500 {
      cases.append(
        (
          Int64(bitPattern: random.next()), Double(bitPattern: random.next()),
          Double(bitPattern: random.next())
        ))
    }
    for (microseconds, rate, rawLength) in cases {
      var song = NowPlaying(
        player: "hostile", status: .playing, title: "t", length: rawLength, position: microseconds,
        rate: rate, positionTime: 1000)
      _ = RenderTests.line(.text, bars: [0.5], nowPlaying: song, clock: 1e9) {
        $0.text = "{position}|{length}|{progress}"
      }
      let length = PlayerValueBounds.length(microseconds: rawLength) ?? 200
      song.length = length
      let text = try #require(
        RenderTests.line(.text, bars: [0.5], nowPlaying: song, clock: 1000 + 86_400 * 3) {
          $0.text = "{position}|{length}|{progress}"
        })
      let fields = text.dropLast().split(separator: "|", omittingEmptySubsequences: false)
      #expect(
        fields.count == 3 && fields[2].count == 10, "\(microseconds) \(rate) \(length): \(text)")
      #expect(fields.prefix(2).allSatisfy { $0.allSatisfy { $0.isNumber || $0 == ":" } }, "\(text)")
      let json = try #require(
        RenderTests.line(.json, bars: [0.5], nowPlaying: song, clock: .infinity))
      #expect(json.contains("\"position\":"), "\(json)")
      #expect(!json.contains("nan") && !json.contains("inf"), "\(json)")
    }
  }

  /// One position through every operation at `times`: each reading within 0…the maximum (and the
  /// length, when it is a positive one), each wake-up after the time it was asked at (for times
  /// a monotonic clock can show: finite, and fine enough that a second still adds to them).
  static func check(microseconds: Int64, rate: Double, length: Double, times: [Double]) {
    var position = PlaybackPosition(
      microseconds: microseconds, at: times[0], rate: rate, status: .playing, length: length)
    for (step, time) in times.enumerated() {
      let seconds = position.seconds(at: time)
      let inRange = seconds >= 0 && seconds <= PlayerValueBounds.maximumPositionSeconds
      let inTrack = !(length > 0) || seconds <= length
      if !inRange || !inTrack {
        Issue.record("\(microseconds) µs, rate \(rate), length \(length) at \(time): \(seconds)")
        return
      }
      let wakes = position.nextVisibleChange(after: time)
      if time.isFinite, time < 1e12, let next = wakes, !(next > time && next <= time + 64) {
        Issue.record("\(microseconds) µs, rate \(rate) at \(time): next change \(next)")
        return
      }
      switch step % 4 {
      case 0: position.statusChanged(to: .paused, at: time)
      case 1: position.rateChanged(to: -rate, at: time)
      case 2: position.seeked(to: microseconds &* 3, at: time)
      default: position.statusChanged(to: .playing, at: time)
      }
    }
  }
}

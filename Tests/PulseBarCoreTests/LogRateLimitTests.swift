import Testing

@testable import PulseBarCore

/// A recurring warning at most once per interval, with the count held back, at exact times.
@Suite struct LogRateLimitTests {
  @Test func oneLinePerIntervalWithTheCountHeldBack() {
    var limit = LogRateLimit(interval: 10)
    #expect(limit.admit(at: 100) == 0)
    // Ten a second for ten seconds: held back.
    var said: [Int] = []
    for tick in 1..<100 {
      if let count = limit.admit(at: 100 + Double(tick) * 0.1) { said.append(count) }
    }
    #expect(said.isEmpty)
    #expect(limit.admit(at: 110) == 99)
    #expect(limit.admit(at: 110.1) == nil)
    // After a quiet spell the next one is said at once, with what was held back.
    #expect(limit.admit(at: 500) == 1)
    #expect(limit.admit(at: 510) == 0)
  }
}

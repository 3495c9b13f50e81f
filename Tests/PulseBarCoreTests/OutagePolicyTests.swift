import Testing

@testable import PulseBarCore

/// The back-off and the "said once" rule every reconnecting part shares (``OutagePolicy``).
@Suite struct OutagePolicyTests {
  @Test("the back-off starts at 100 ms, doubles, stops at 2 s, and starts over on reset")
  func backoff() {
    var backoff = Backoff()
    #expect((0..<7).map { _ in backoff.next() } == [0.1, 0.2, 0.4, 0.8, 1.6, 2, 2])
    backoff.reset()
    #expect(backoff.next() == 0.1)
  }

  /// One step of a connection's life and what the policy answers: for a failure, whether a
  /// line is said and the delay; for a connection, whether "connected again" is said.
  enum Step: Sendable, CustomStringConvertible {
    case lost(announce: Bool, after: Double)
    case streamFailed(after: Double)
    case connected(saysBack: Bool)

    var description: String {
      switch self {
      case .lost(let announce, let after): "lost(\(announce), \(after))"
      case .streamFailed(let after): "streamFailed(\(after))"
      case .connected(let saysBack): "connected(\(saysBack))"
      }
    }
  }

  static let lives: [(String, [Step])] = [
    (
      "a server that never comes: one line, then quiet retries at the back-off's delays",
      [
        .lost(announce: true, after: 0.1), .lost(announce: false, after: 0.2),
        .lost(announce: false, after: 0.4), .lost(announce: false, after: 0.8),
        .lost(announce: false, after: 1.6), .lost(announce: false, after: 2),
        .lost(announce: false, after: 2),
      ]
    ),
    (
      "an outage and its end are said once each; the next outage starts at 100 ms again",
      [
        .connected(saysBack: false), .lost(announce: true, after: 0.1),
        .lost(announce: false, after: 0.2), .connected(saysBack: true),
        .connected(saysBack: false), .lost(announce: true, after: 0.1),
      ]
    ),
    (
      "a failed stream while connected backs off without a line or an outage",
      [
        .connected(saysBack: false), .streamFailed(after: 0.1), .streamFailed(after: 0.2),
        .lost(announce: true, after: 0.4), .connected(saysBack: true),
        .streamFailed(after: 0.1),
      ]
    ),
  ]

  @Test("a connection's life", arguments: lives)
  func life(_ name: String, _ steps: [Step]) {
    var policy = OutagePolicy()
    for (index, step) in steps.enumerated() {
      switch step {
      case .lost(let announce, let after):
        let retry = policy.lost()
        #expect(
          retry == .init(announce: announce, after: after), "step \(index) of \(name): \(retry)")
      case .streamFailed(let after):
        let delay = policy.failedWhileConnected()
        #expect(delay == after, "step \(index) of \(name): \(delay)")
      case .connected(let saysBack):
        let said = policy.connected()
        #expect(said == saysBack, "step \(index) of \(name)")
      }
    }
  }

  @Test("pulsebar listen's reconnects: 100 ms doubling to 2 s, again from 100 ms after frames")
  func listenDelays() {
    var policy = OutagePolicy()
    // Whole milliseconds: listen waits `.seconds(after)`, a Duration.
    func milliseconds(_ retry: OutagePolicy.Retry) -> Int { Int((retry.after * 1000).rounded()) }
    let delays = (0..<7).map { _ in milliseconds(policy.lost()) }
    #expect(delays == [100, 200, 400, 800, 1600, 2000, 2000])
    _ = policy.connected()
    #expect(milliseconds(policy.lost()) == 100)
  }
}

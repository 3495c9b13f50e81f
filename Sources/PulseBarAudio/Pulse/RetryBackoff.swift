/// Delays between reconnection attempts: 100 ms, doubling, capped at 2 s.
package struct RetryBackoff: Sendable, Equatable {
  /// The first delay, in microseconds.
  package let initial: UInt64
  /// The longest delay, in microseconds.
  package let cap: UInt64
  private var next: UInt64

  package init(initial: UInt64 = 100_000, cap: UInt64 = 2_000_000) {
    self.initial = initial
    self.cap = cap
    next = initial
  }

  /// The delay before the next attempt; each call doubles the one after, up to the cap.
  package mutating func nextDelay() -> UInt64 {
    let delay = next
    next = min(cap, next * 2)
    return delay
  }

  /// Back to the first delay (after a successful connection).
  package mutating func reset() { next = initial }
}

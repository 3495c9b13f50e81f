/// Delays between attempts to reach a server that is not there: 100 ms, doubling, at most 2 s.
///
/// The one back-off of every reconnecting part: the PulseAudio and PipeWire sources
/// (through ``OutagePolicy``) and `pulsebar listen`. Seconds, as every policy's time is.
package struct Backoff: Sendable, Equatable {
  /// The first delay, in seconds.
  package let first: Double
  /// The longest delay, in seconds.
  package let limit: Double
  private var current: Double

  package init(first: Double = 0.1, limit: Double = 2) {
    self.first = first
    self.limit = limit
    current = first
  }

  /// The delay to wait now; the one after it is twice as long, up to ``limit``.
  package mutating func next() -> Double {
    defer { current = min(current * 2, limit) }
    return current
  }

  /// Back to the first delay (after a connection that worked).
  package mutating func reset() { current = first }
}

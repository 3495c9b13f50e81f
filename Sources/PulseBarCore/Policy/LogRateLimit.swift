/// Says a warning that can recur many times a second (a listener that cannot accept for want
/// of descriptors) at most once per ``interval``, and counts what it held back meanwhile, so
/// the log keeps one line per interval with the count instead of ten lines a second.
///
/// Times are seconds on the monotonic clock, given by the caller.
package struct LogRateLimit: Sendable, Equatable {
  /// The least time between two lines, in seconds.
  package let interval: Double
  /// When the last line was said.
  private var lastSaid: Double?
  /// Occurrences held back since then.
  private var heldBack = 0

  package init(interval: Double) {
    self.interval = interval
  }

  /// The warning occurred at `now`: `nil` to hold it back, or how many were held back since
  /// the last line said (the count goes into the line said now).
  package mutating func admit(at now: Double) -> Int? {
    if let lastSaid, now - lastSaid < interval {
      heldBack += 1
      return nil
    }
    let count = heldBack
    lastSaid = now
    heldBack = 0
    return count
  }
}

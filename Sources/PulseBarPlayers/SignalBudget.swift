/// How many of one player's `PropertiesChanged` signals are read, over time: a token bucket
/// with injected time (seconds on the monotonic clock), so the rule is tested with exact times.
///
/// A player that behaves sends a few signals per track change or pause, well inside the
/// bucket's ``capacity``. A player that floods the bus (a bug, or a web page driving a
/// browser's media session) gets ``refillPerSecond`` signals read a second; the others are
/// only counted, and the player is asked for its properties once when the bucket next admits
/// (``PlayerSession`` does that), so what is shown ends up current at a bounded cost.
struct SignalBudget: Sendable, Equatable {
  /// Signals read in a burst: more than mpv-mpris sends at a track change (metadata, status,
  /// `Seeked`, the capabilities), so a real player's change is never deferred.
  static let capacity: Double = 32
  /// Signals read a second once the burst is spent.
  static let refillPerSecond: Double = 30

  private var tokens = capacity
  private var updated: Double

  /// A full bucket at `now`.
  init(now: Double) { updated = now }

  /// Whether a signal arriving at `now` is read; takes a token when it is.
  mutating func admit(at now: Double) -> Bool {
    refill(to: now)
    guard tokens >= 1 else { return false }
    tokens -= 1
    return true
  }

  /// The earliest time at or after `now` at which ``admit(at:)`` will say yes.
  func nextAdmission(after now: Double) -> Double {
    var copy = self
    copy.refill(to: now)
    return copy.tokens >= 1 ? now : now + (1 - copy.tokens) / Self.refillPerSecond
  }

  private mutating func refill(to now: Double) {
    guard now > updated else { return }
    tokens = min(Self.capacity, tokens + (now - updated) * Self.refillPerSecond)
    updated = now
  }
}

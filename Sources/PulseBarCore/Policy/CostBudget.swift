/// A cost allowed per second, with a burst: a token bucket in the unit of the work it bounds
/// (bytes of a player's `xesam:asText` parsed). Injected time (seconds on the monotonic clock),
/// so what waits and for how long is tested with exact times.
///
/// Starts full. Work that costs more than ``burst`` is never allowed: the caller caps it first.
package struct CostBudget: Sendable, Equatable {
  /// The most that may be spent at once.
  package let burst: Double
  /// What comes back each second.
  package let perSecond: Double
  private var available: Double
  private var updated: Double?

  package init(burst: Double, perSecond: Double) {
    self.burst = burst
    self.perSecond = perSecond
    available = burst
  }

  /// Spends `cost` at `now` when it is there: true; false leaves the budget as it was.
  package mutating func spend(_ cost: Double, at now: Double) -> Bool {
    refill(at: now)
    guard cost <= available else { return false }
    available -= cost
    return true
  }

  /// When `cost` will be there, from `now` (`now` itself when it is already).
  package mutating func due(for cost: Double, at now: Double) -> Double {
    refill(at: now)
    return cost <= available ? now : now + (cost - available) / perSecond
  }

  private mutating func refill(at now: Double) {
    if let updated, now > updated {
      available = min(burst, available + (now - updated) * perSecond)
    }
    updated = max(updated ?? now, now)
  }
}

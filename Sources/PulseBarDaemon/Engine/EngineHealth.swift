import PulseBarSystem
import Synchronization

/// Whether the engine thread is making progress, for the systemd watchdog.
///
/// The engine marks when it wakes to work and when it goes back to sleep in
/// `poll`. Sleeping is healthy however long it lasts (nothing plays, nothing is
/// due); being in the middle of work for longer than the watchdog interval is
/// not: a hung frame stops the pings and systemd restarts the service.
package final class EngineHealth: Sendable {
  /// When the current piece of work started (monotonic seconds, as a `Double`'s bit pattern);
  /// 0 while asleep.
  private let busySince = Atomic<UInt64>(0)

  package init() {}

  /// The engine woke up to work (engine thread).
  @inline(__always)
  package func beginWork(now: Double = monotonicSeconds()) {
    busySince.store(max(now, .leastNonzeroMagnitude).bitPattern, ordering: .relaxed)
  }

  /// The engine is going back to sleep (engine thread).
  @inline(__always)
  package func endWork() { busySince.store(0, ordering: .relaxed) }

  /// True unless one piece of work has lasted longer than `limit` seconds (any thread).
  package func isHealthy(limit: Double, now: Double = monotonicSeconds()) -> Bool {
    let bits = busySince.load(ordering: .relaxed)
    return bits == 0 || now - Double(bitPattern: bits) <= limit
  }
}

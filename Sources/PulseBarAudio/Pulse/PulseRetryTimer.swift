internal import CPulse
import Glibc
import PulseBarSystem

/// The connection's one retry timer: a time event of the mainloop's api, made on the first
/// ``arm(after:)`` and restarted by every later one (one pending retry at a time), freed for
/// good by ``free()``, after which arming does nothing (the daemon stops).
///
/// Its callback finds it through its `userdata`, an unretained pointer; the connection owns it
/// until the mainloop is freed.
final class PulseRetryTimer: PulseCallbackTarget {
  private let api: UnsafeMutablePointer<pa_mainloop_api>
  /// What runs when the timer fires, on the mainloop's thread.
  private let fired: () -> Void
  private var event: OpaquePointer?
  private var isFreed = false

  init(api: UnsafeMutablePointer<pa_mainloop_api>, fired: @escaping () -> Void) {
    self.api = api
    self.fired = fired
  }

  /// Arms the timer to fire at `time` (monotonic seconds).
  func arm(at time: Double) { arm(after: max(0, time - monotonicSeconds())) }

  /// Arms the timer to fire in `seconds`, replacing what it was armed for.
  func arm(after seconds: Double) {
    guard !isFreed else { return }
    var when = timeval()
    gettimeofday(&when, nil)
    pa_timeval_add(&when, UInt64((seconds * 1_000_000).rounded()))
    if let event {
      api.pointee.time_restart(event, &when)
    } else {
      event = api.pointee.time_new(
        api, &when,
        { _, _, _, userdata in
          PulseRetryTimer.from(userdata).fired()
        }, userdata)
    }
  }

  /// Frees the time event; the timer is never armed again.
  func free() {
    isFreed = true
    if let event {
      api.pointee.time_free(event)
      self.event = nil
    }
  }
}

internal import CPulse
import Glibc
import PulseBarSystem

/// The capture's one timer (``CaptureAction/armTimer(at:)``): a time event of the mainloop's
/// api, made on the first ``arm(after:userdata:fired:)`` and restarted by every later one (one
/// pending time at a time), freed for good by ``free()``, after which arming does nothing.
///
/// It holds no reference to whoever it wakes: its callback gets the `userdata` it was armed
/// with (``PulseConnection``'s). Confined to the mainloop's thread, reached only through the
/// connection (``ThreadConfinement``, asserted in debug builds).
final class PulseTimer {
  private let api: UnsafeMutablePointer<pa_mainloop_api>
  private var event: OpaquePointer?
  private var isFreed = false
  private var confinement = ThreadConfinement()

  init(api: UnsafeMutablePointer<pa_mainloop_api>) { self.api = api }

  /// Arms the timer to fire `seconds` from now, replacing what it was armed for; `fired` runs
  /// then with `userdata`.
  func arm(after seconds: Double, userdata: UnsafeMutableRawPointer, fired: pa_time_event_cb_t) {
    confinement.check("PulseTimer")
    guard !isFreed else { return }
    let seconds = max(0, seconds)
    var when = timeval()
    gettimeofday(&when, nil)
    pa_timeval_add(&when, UInt64((seconds * 1_000_000).rounded()))
    if let event {
      api.pointee.time_restart(event, &when)
    } else {
      event = api.pointee.time_new(api, &when, fired, userdata)
    }
  }

  /// Frees the time event; the timer is never armed again.
  func free() {
    confinement.check("PulseTimer")
    isFreed = true
    if let event {
      api.pointee.time_free(event)
      self.event = nil
    }
  }
}

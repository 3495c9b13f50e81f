import PulseBarCore
import PulseBarSystem

/// Hands an adapter's events to its ``CaptureCore`` one at a time, with the time they are
/// handled, and each decided action to the adapter: an event raised while actions are carried
/// out (a stream refused at once) waits until they are all done, so the core never sees a
/// half-applied decision. Both adapters (``PulseConnection``, ``PipeWireConnection``) drive
/// their core through one. Not `Sendable`: the compiler keeps it with the adapter that owns it.
final class CaptureCoreDriver {
  private(set) var core: CaptureCore
  /// When the event being handled (or the last one) happened: the capture's one reading of the
  /// clock per event, which its adapter's timers count from.
  private(set) var now = 0.0
  private var pending: [CaptureEvent] = []
  private var handling = false

  init(_ core: CaptureCore) {
    self.core = core
    pending.reserveCapacity(8)
  }

  /// Handles `event` and has `perform` carry out what the core decides, in order, then any
  /// event raised meanwhile. A fragment with nothing to decide allocates nothing.
  func send(_ event: CaptureEvent, perform: (CaptureAction) -> Void) {
    guard !handling else { return pending.append(event) }
    handling = true
    defer { handling = false }
    var next: CaptureEvent? = event
    while let event = next {
      now = monotonicSeconds()
      for action in core.handle(event, at: now) { perform(action) }
      next = pending.isEmpty ? nil : pending.removeFirst()
    }
  }
}

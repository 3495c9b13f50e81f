internal import CPipeWire

/// A one-shot timer on the PipeWire loop, which any thread may arm: the loop thread arms the
/// core's timer, and a player stream's process callback arms the streams' timer from the data
/// thread (arming is one `timerfd_settime`, which allocates nothing). Its callback runs on the
/// loop thread with the loop's lock held.
///
/// `@unchecked Sendable` because it is two C pointers (the loop and the timer source), which
/// is unavoidable: the data thread must reach the timer to arm it. Both are fixed from
/// ``make(on:data:fired:)`` to ``destroy()``, and the owner destroys the timer only after every
/// stream whose callback arms it is gone.
struct PipeWireLoopTimer: @unchecked Sendable {
  private let loop: UnsafeMutablePointer<pw_loop>
  private let source: UnsafeMutablePointer<spa_source>

  /// A timer on `loop` whose expiry calls `fired` with `data`; `nil` if libpipewire cannot make
  /// one. Made on the loop thread, or before the loop runs.
  static func make(
    on loop: UnsafeMutablePointer<pw_loop>, data: UnsafeMutableRawPointer,
    fired: @escaping @convention(c) (UnsafeMutableRawPointer?, UInt64) -> Void
  ) -> PipeWireLoopTimer? {
    guard let source = pb_pw_loop_add_timer(loop, fired, data) else { return nil }
    return PipeWireLoopTimer(loop: loop, source: source)
  }

  /// Fires once in `seconds` (at least 1 µs), replacing any earlier arming.
  func arm(after seconds: Double) {
    pb_pw_loop_arm_timer(loop, source, max(1, UInt64((seconds * 1_000_000).rounded())))
  }

  /// Fires as soon as the loop gets to it. Allocates nothing.
  func armNow() { pb_pw_loop_arm_timer(loop, source, 1) }

  /// Removes the timer from the loop, for good (on the loop thread, or with its lock held).
  func destroy() { pb_pw_loop_destroy_source(loop, source) }
}

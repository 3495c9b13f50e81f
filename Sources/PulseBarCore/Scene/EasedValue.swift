/// A value that eases toward a target over a fixed duration, driven by audio time.
///
/// Changing the target mid-way restarts the animation from the current value, as the
/// seed's POP animation does when the button flips while still moving. The play/pause
/// morph and the resting-bar blend are both one of these.
package struct EasedValue: Sendable, Equatable {
  /// The value at the last ``advance(to:)``.
  package private(set) var value: Float
  /// Where the value is heading.
  package private(set) var target: Float
  /// Seconds a full animation takes.
  package let duration: Double
  /// Maps linear progress to eased progress.
  package let curve: TimingCurve
  private var from: Float
  private var start: Double = 0

  package init(value: Float, duration: Double, curve: TimingCurve = .easeOut) {
    self.value = value
    self.target = value
    self.from = value
    self.duration = duration
    self.curve = curve
  }

  /// True until the value has reached its target.
  package var isMoving: Bool { value != target }

  /// Steps the animation to `time` (seconds of audio).
  package mutating func advance(to time: Double) {
    guard value != target else { return }
    let progress = duration > 0 ? (time - start) / duration : 1
    if progress >= 1 {
      value = target
    } else {
      value = from + (target - from) * Float(curve.value(at: progress))
    }
  }

  /// Starts an animation toward `newTarget` at `time`, from the value at `time`.
  /// Nothing changes when `newTarget` is already the target.
  package mutating func retarget(_ newTarget: Float, at time: Double) {
    guard newTarget != target else { return }
    advance(to: time)
    from = value
    start = time
    target = newTarget
    advance(to: time)
  }

  /// Sets the value and target at once, ending any animation.
  package mutating func jump(to newValue: Float) {
    value = newValue
    target = newValue
    from = newValue
  }
}

/// When a consumer with a lower frame rate renders: at most once per `1/fps` s of pipeline
/// time, and it keeps the engine ticking while a frame it skipped is not yet rendered (else
/// a scene that settles on a skipped frame would leave the consumer's last line stale).
struct FrameRateGate {
  /// Seconds between two renders; 0 renders every frame.
  let period: Double
  /// Half a pipeline frame: frame times are sums of 1/fps, so "due" allows that much early.
  var slack: Double
  private var nextDue = -Double.infinity
  /// A frame was skipped since the last render.
  private(set) var owesFrame = false

  init(fps: Int?, pipelineFPS: Int) {
    period = fps.map { 1 / Double($0) } ?? 0
    slack = 0.5 / Double(pipelineFPS)
  }

  /// True when the consumer renders the frame at `time`.
  mutating func admit(at time: Double) -> Bool {
    guard period > 0 else { return true }
    guard time + slack >= nextDue else {
      owesFrame = true
      return false
    }
    // On schedule keeps the cadence exact; after a gap (no frames) the schedule restarts.
    nextDue = time - nextDue > period ? time + period : nextDue + period
    owesFrame = false
    return true
  }
}

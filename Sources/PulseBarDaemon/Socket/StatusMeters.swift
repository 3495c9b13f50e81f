import Glibc

/// What `pulsebar status` measures of the daemon over time: frames a second now, and CPU over
/// the last 10 s. Pure bookkeeping with injected times (monotonic seconds) and CPU readings
/// (seconds of the process's CPU time), fed by the socket handler once per frame; it allocates
/// nothing after its start.
package struct StatusMeters: Sendable {
  /// The span the CPU figure covers.
  package static let cpuWindow = 10.0
  /// At most one CPU sample a second is kept; enough to reach ``cpuWindow`` back.
  static let sampleCapacity = 16

  /// Frames remembered: more than the fastest rate (240) makes in a second.
  static let frameCapacity = 256

  /// When the meters started (the daemon's start).
  package let startedAt: Double
  /// When the last ``frameCapacity`` frames went out, a ring (`-infinity`: none yet).
  private var frameTimes: [Double]
  private var nextFrame = 0
  /// (time, CPU seconds) samples, oldest first, at least a second apart.
  private var samples: [(time: Double, cpu: Double)]

  package init(startedAt: Double, cpu: Double) {
    self.startedAt = startedAt
    frameTimes = Array(repeating: -.infinity, count: Self.frameCapacity)
    samples = [(startedAt, cpu)]
    samples.reserveCapacity(Self.sampleCapacity)
  }

  /// A frame went out at `now`; `cpu` reads the process's CPU time, called at most once a
  /// second.
  package mutating func frame(at now: Double, cpu: () -> Double) {
    frameTimes[nextFrame] = now
    nextFrame = (nextFrame + 1) % Self.frameCapacity
    if let last = samples.last, now - last.time >= 1 {
      if samples.count == Self.sampleCapacity { samples.removeFirst() }
      samples.append((now, cpu()))
    }
  }

  /// Frames that went out in the second before `now`.
  package func framesPerSecond(at now: Double) -> Int {
    frameTimes.count { now - $0 < 1 && $0 <= now }
  }

  /// The share of one CPU the process used, in percent, from the newest sample at least
  /// ``cpuWindow`` old (else the start) to `now`, when it had used `cpu` seconds; and the span
  /// in seconds, which is longer than the window while no frame has been made for a while.
  package func cpuPercent(at now: Double, cpu: Double) -> (percent: Double, seconds: Double) {
    let base = samples.last(where: { now - $0.time >= Self.cpuWindow }) ?? samples[0]
    let seconds = now - base.time
    guard seconds > 0 else { return (0, 0) }
    return (max(0, cpu - base.cpu) / seconds * 100, seconds)
  }

  /// The process's CPU time so far (every thread), in seconds.
  package static func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}

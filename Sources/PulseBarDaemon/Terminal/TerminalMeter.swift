import Glibc
import PulseBarSystem

/// Frames per second and the process's CPU use for the status line, refreshed once a
/// second of wall clock (one `getrusage` then, none in between).
struct TerminalMeter {
  /// Frames per wall-clock second over the last full window.
  private(set) var fps: Double = 0
  /// User plus system CPU over the last window, in percent of one core.
  private(set) var cpuPercent: Double = 0
  private var windowStart: Double = -1
  private var windowCPU: Double = 0
  private var frames = 0

  /// Counts a frame drawn at `now` (the engine's time, seconds).
  mutating func frame(now: Double) {
    if windowStart < 0 {
      windowStart = now
      windowCPU = Self.processCPUSeconds()
      return
    }
    frames += 1
    let elapsed = now - windowStart
    guard elapsed >= 1 else { return }
    let cpu = Self.processCPUSeconds()
    fps = Double(frames) / elapsed
    cpuPercent = (cpu - windowCPU) / elapsed * 100
    windowStart = now
    windowCPU = cpu
    frames = 0
  }

  /// User plus system CPU seconds this process has used.
  private static func processCPUSeconds() -> Double {
    var usage = rusage()
    guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return user + system
  }
}

import PulseBarAudio
import PulseBarSystem

/// The daemon's clock: `CLOCK_MONOTONIC` and one `poll(2)` (libpulse's descriptors in it, when
/// the capture is driven by the loop).
package struct SystemEngineClock: EngineClock {
  package init() {}

  @inline(__always)
  package func now() -> Double { monotonicSeconds() }

  @inline(__always)
  package func wait(
    _ poll: inout PollSet, timeoutMilliseconds: Int32, driven: (any EngineDrivenCapture)?,
    audioWanted: Bool
  ) -> EngineWaitResult {
    let ready =
      driven?.wait(&poll, timeoutMilliseconds: timeoutMilliseconds, audioWanted: audioWanted)
      ?? poll.wait(timeoutMilliseconds: timeoutMilliseconds)
    return ready == 0 ? .timedOut : .ready
  }
}

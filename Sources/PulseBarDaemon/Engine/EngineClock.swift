import PulseBarAudio
import PulseBarSystem

/// Where the engine's loop reads the time and sleeps: the system's monotonic clock and
/// `poll(2)` in the daemon (``SystemEngineClock``), a manual clock in tests that drives the
/// same loop on exact times (as swift-nio's `NIOEmbedded` drives a channel).
///
/// A generic parameter of ``Engine``, so the daemon's loop calls the system's clock directly.
package protocol EngineClock {
  /// Seconds on the monotonic axis every deadline of the loop is on.
  func now() -> Double

  /// Sleeps on `poll`, and on `driven`'s own descriptors when a capture is driven by the loop,
  /// up to `timeoutMilliseconds` (-1: no limit). `audioWanted` is passed on to `driven`
  /// (``EngineDrivenCapture/wait(_:timeoutMilliseconds:audioWanted:)``).
  func wait(
    _ poll: inout PollSet, timeoutMilliseconds: Int32, driven: (any EngineDrivenCapture)?,
    audioWanted: Bool
  ) -> EngineWaitResult
}

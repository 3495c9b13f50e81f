import PulseBarCore
import PulseBarSystem

/// A source whose library work can run on the engine's own thread: the engine's wait is the
/// library's wait, so a fragment costs one wake-up instead of one on a library thread and a
/// second, through the buffer's eventfd, on the engine's (docs/DESIGN.md, "Input": one wake-up per fragment).
package protocol EngineDrivenCapture: CaptureSource {
  /// Waits up to `timeoutMilliseconds` (-1: forever) on `poll` and on the library's own
  /// descriptors and timers in one `poll(2)`, then runs the library callbacks that are due
  /// (a fragment lands in the buffer). Returns how many of `poll`'s descriptors are ready.
  ///
  /// Without `audioWanted` (the engine still holds queued frames, the next due within the
  /// timeout) the library's descriptors are left for the next wait: the server's next fragment
  /// is read when that frame is drawn instead of waking the thread on its own.
  /// Called only on the thread that started the source, as are `stop` and `reconfigure`.
  func wait(_ poll: inout PollSet, timeoutMilliseconds: Int32, audioWanted: Bool) -> Int
}

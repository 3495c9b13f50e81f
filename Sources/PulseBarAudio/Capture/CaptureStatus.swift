import Glibc
import PulseBarCore
import PulseBarSystem

/// What the capture side last reported, besides samples.
package struct CaptureStatus: Sendable, Equatable {
  /// Streams feeding the monitored sink (PulseAudio), or whether a file is still delivering.
  package var activity: StreamActivity = .none
  /// Connected to the audio server (always true for file, fifo and stdin input).
  package var connected: Bool = false
  /// The source being recorded, for the status line, tooltips and `STATUS=`.
  package var sourceName: String = ""
  /// The input has ended for good (end of file or of the fifo writer with no reopen).
  package var endOfStream: Bool = false
  /// The audio recorded is known to be someone else's than the active player's, which does
  /// not play (``PlayerStreamSelection/othersPlay(player:streams:parentOf:)``): its `Paused`
  /// does not hold the state at `paused`.
  package var othersPlay: Bool = false
  /// Bumped whenever the stream is recreated (sink switch, reconnect): the engine resets its history.
  package var generation: UInt32 = 0

  package init() {}
}

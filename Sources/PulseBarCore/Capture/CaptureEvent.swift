/// What happens to the capture, as the adapters (libpulse's callbacks, PipeWire's registry and
/// metadata) and the daemon say it, each with the time it happened (``CaptureCore/handle(_:at:)``).
package enum CaptureEvent: Sendable, Equatable {
  // MARK: The daemon

  /// The source starts: connect.
  case start
  /// The source stops for good.
  case stop
  /// The active MPRIS player changed, or started or stopped playing (`nil`: none).
  case playerChanged(PlayerAudioIdentity?)
  /// A reload or the engine's consumers changed the capture's settings, told at once:
  /// `input.scope` (`nil`: unchanged); with `format` (channels or fps) the streams are made
  /// again at the new format; with `steadyFragment` (the analysis rate resized it) streams
  /// already on the steady fragment take its new size.
  case reconfigured(scope: CaptureScope?, format: Bool, steadyFragment: Bool)
  /// The timer armed by ``CaptureAction/armTimer(at:)`` fired.
  case timerFired

  // MARK: The server

  /// The connection is up (PulseAudio: the context is ready and subscribed; its playback
  /// streams are being listed).
  case connected
  /// The server went away or refused us (or could not be reached).
  case serverLost(reason: String)
  /// The answer to ``CaptureAction/describeServer``: which server it is and the default sink's
  /// name (PulseAudio: the server info; PipeWire: the `default.audio.sink` metadata).
  case serverDescribed(onPipeWire: Bool, defaultSink: String?)
  /// The answer to ``CaptureAction/describeSink(_:)``.
  case sinkDescribed(SinkDescription)
  /// The answer to ``CaptureAction/describeSource(_:)``.
  case sourceDescribed(SourceDescription)
  /// ``CaptureAction/describeSource(_:)`` found no such source.
  case sourceMissing(String)
  /// A sink or source appeared or went away, or the server's defaults changed: what to record
  /// is looked up again.
  case devicesChanged
  /// A playback stream (sink input, stream node) appeared or changed.
  case streamUpdated(ServerStream)
  /// A playback stream went away.
  case streamRemoved(UInt32)

  // MARK: Our record streams

  /// A record stream is ready (it records).
  case recordStreamReady(RecordStreamID)
  /// A record stream failed or was ended by the server.
  case recordStreamEnded(RecordStreamID)
  /// A record stream could not be made or connected; `reason` says why.
  case recordStreamRefused(RecordStreamID, reason: String)
  /// The server moved the output's record stream to `source` (`nil`: it did not say where).
  case recordStreamMoved(RecordStreamID, to: String?)
  /// A record stream delivered a fragment of `frames` sample frames. Runs once per fragment:
  /// its handling allocates nothing unless it has something to do.
  case fragment(RecordStreamID, frames: Int)
  /// A record stream delivered its first audio, with no fragment to count (native PipeWire:
  /// the loop hears of the data thread's first quantum, whose size is the graph's).
  case delivered(RecordStreamID)
}

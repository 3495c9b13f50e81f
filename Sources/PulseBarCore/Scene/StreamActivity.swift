/// What the capture side knows about the streams that feed the monitored sink.
///
/// PulseAudio reports sink inputs (`none`, `corked`, `running`); file, fifo and
/// stdin input report `running` while they deliver audio and `none` at the end.
package enum StreamActivity: UInt8, Sendable {
  /// No stream plays into the monitored sink.
  case none
  /// Streams exist but all are corked (paused by their player).
  case corked
  /// At least one stream is running.
  case running
}

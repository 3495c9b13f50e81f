/// Where the captured audio changes hands while the sound goes on: the samples from one point
/// on come from another stream, so the spectrum steps there (a splice's click, a history begun
/// from zeros) although the music does not. The capture marks the point
/// (`CaptureBuffer.markSourceSwitch()` and its writes' origins); the engine tells the pipeline
/// at the frame that holds it (``FramePipeline/sourceSwitched(_:)``), and that step spawns no
/// bubble.
package enum SourceSwitch: Sendable, Equatable {
  /// From the whole output's stream to the active player's own streams or back. The sound
  /// goes on if the scene plays (a short gap between the streams leaves it playing); a
  /// hand-over while nothing plays is a start.
  case handOver
  /// A new stream opened while a stream plays: a default-sink switch, the server's return, the
  /// daemon's start, a reload's new format. The sound goes on whatever the frame before was.
  case newStream
}

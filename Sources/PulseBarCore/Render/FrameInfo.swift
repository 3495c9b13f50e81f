/// What a frame says besides the scene and the bars.
package struct FrameInfo: Sendable {
  /// Seconds of audio since the start.
  package var time: Double
  /// The source being visualized (a PulseAudio source name, a file path).
  package var source: String
  /// Connected to the audio server (always true for files).
  package var connected: Bool
  /// Monotonic seconds now, on the clock that stamps ``NowPlaying/positionTime``: the player's
  /// position is extrapolated to it. `nil` shows the position as last sampled.
  package var clock: Double?
  /// The text line is hidden (`output.hide_when`; the pipeline sets it).
  package var hidden: Bool

  package init(
    time: Double, source: String, connected: Bool, clock: Double? = nil, hidden: Bool = false
  ) {
    self.time = time
    self.source = source
    self.connected = connected
    self.clock = clock
    self.hidden = hidden
  }
}

import PulseBarCore

/// What the terminal view's status line shows, gathered by the engine each frame.
package struct TerminalStatus {
  /// The capture source, as `InputSpec` prints it or the PulseAudio source name.
  package var source: String
  package var state: PlaybackState
  /// Frames per second actually produced.
  package var fps: Double
  /// Estimated seconds from sound to the first frame showing it; `nil` when unknown.
  package var onsetLatency: Double?
  /// The daemon's CPU use in percent of one core.
  package var cpuPercent: Double
  package var socketClients: Int
  /// Frames dropped for slow socket clients, in all.
  package var droppedFrames: Int

  package init(
    source: String, state: PlaybackState, fps: Double, onsetLatency: Double?,
    cpuPercent: Double, socketClients: Int, droppedFrames: Int
  ) {
    self.source = source
    self.state = state
    self.fps = fps
    self.onsetLatency = onsetLatency
    self.cpuPercent = cpuPercent
    self.socketClients = socketClients
    self.droppedFrames = droppedFrames
  }
}

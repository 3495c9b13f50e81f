/// One playback stream as the audio server describes it (a PulseAudio sink input, a PipeWire
/// stream node `Stream/Output/Audio`): its id, whether it plays, and the properties that tie it
/// to an application, which is all the player's selection (``PlayerStreamSelection``) reads.
package struct PlaybackStream: Sendable, Equatable {
  /// The sink-input index or the node's id.
  package var id: UInt32
  /// `application.process.id`.
  package var processID: Int32?
  /// `application.process.binary`.
  package var binary: String?
  /// `application.name`.
  package var applicationName: String?
  /// It plays: a sink input that is not corked, a node that runs.
  package var running: Bool

  package init(
    id: UInt32, processID: Int32? = nil, binary: String? = nil, applicationName: String? = nil,
    running: Bool
  ) {
    self.id = id
    self.processID = processID
    self.binary = binary
    self.applicationName = applicationName
    self.running = running
  }
}

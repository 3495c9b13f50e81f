/// One playback stream on the audio server, as the capture core sees it: a PulseAudio sink
/// input, or a PipeWire stream node (`Stream/Output/Audio`). The two are the same thing to the
/// core: an id, the sink it plays into, whether it plays, and the application it belongs to.
package struct ServerStream: Sendable, Equatable {
  /// The sink-input index or the node's id.
  package var id: UInt32
  /// The sink it plays into; `nil` while that is not known (a PipeWire node before its links).
  package var sink: UInt32?
  /// It plays: a sink input its player did not cork, a node that runs.
  package var running: Bool
  /// `application.process.id`.
  package var processID: Int32?
  /// `application.process.binary`.
  package var binary: String?
  /// `application.name`.
  package var applicationName: String?

  package init(
    id: UInt32, sink: UInt32?, running: Bool, processID: Int32? = nil, binary: String? = nil,
    applicationName: String? = nil
  ) {
    self.id = id
    self.sink = sink
    self.running = running
    self.processID = processID
    self.binary = binary
    self.applicationName = applicationName
  }

  /// The stream as ``PlayerStreamSelection`` reads it.
  package var playback: PlaybackStream {
    PlaybackStream(
      id: id, processID: processID, binary: binary, applicationName: applicationName,
      running: running)
  }
}

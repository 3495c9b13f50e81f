/// One playback stream on the audio server and the sink it plays into, as the capture core
/// keeps it (``ServerStreamTable``): what the player's selection reads of it
/// (``PlaybackStream``) and where it plays, which decides whose sound is on the output.
package struct ServerStream: Sendable, Equatable {
  /// The stream itself: its id, whether it plays, the application it belongs to.
  package var playback: PlaybackStream
  /// The sink it plays into; `nil` while that is not known (a PipeWire node before its links).
  package var sink: UInt32?

  package init(
    id: UInt32, sink: UInt32?, running: Bool, processID: Int32? = nil, binary: String? = nil,
    applicationName: String? = nil
  ) {
    playback = PlaybackStream(
      id: id, processID: processID, binary: binary, applicationName: applicationName,
      running: running)
    self.sink = sink
  }

  /// The sink-input index or the node's id.
  package var id: UInt32 { playback.id }
}

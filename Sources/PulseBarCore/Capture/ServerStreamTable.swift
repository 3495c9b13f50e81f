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

/// The server's playback streams by id (one model for both servers), and what they add up to
/// for one sink: none, all corked, or at least one running.
package struct ServerStreamTable: Sendable, Equatable {
  private var streams: [UInt32: ServerStream] = [:]

  package init() {}

  /// Streams known.
  package var count: Int { streams.count }

  /// Records a new or changed stream.
  package mutating func update(_ stream: ServerStream) { streams[stream.id] = stream }

  /// Forgets a stream that went away.
  package mutating func remove(id: UInt32) { streams[id] = nil }

  /// Forgets everything (the connection was lost).
  package mutating func removeAll() { streams.removeAll() }

  /// The stream with this id, if it is known.
  package subscript(id: UInt32) -> ServerStream? { streams[id] }

  /// The sink a stream plays into, if it is known.
  package func sink(of id: UInt32) -> UInt32? { streams[id]?.sink }

  /// The streams (those on `sink`, when given), for ``PlayerStreamSelection``.
  package func playbackStreams(onSink sink: UInt32? = nil) -> [PlaybackStream] {
    streams.values.filter { sink == nil || $0.sink == sink }.map(\.playback)
  }

  /// What plays into `sink`: `.running` if any stream runs, `.corked` if streams exist but
  /// none runs, `.none` otherwise.
  package func activity(onSink sink: UInt32) -> StreamActivity {
    var result = StreamActivity.none
    for stream in streams.values where stream.sink == sink {
      if stream.running { return .running }
      result = .corked
    }
    return result
  }
}

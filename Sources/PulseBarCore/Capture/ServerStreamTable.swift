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
      if stream.playback.running { return .running }
      result = .corked
    }
    return result
  }
}

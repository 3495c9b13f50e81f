import PulseBarCore

/// The sink inputs (playback streams) the server reported, by index, and what
/// they add up to for one sink: none, all corked, or at least one running.
package struct SinkInputTable: Sendable, Equatable {
  /// One playback stream: the sink it plays into, whether its player corked it, and the
  /// application it belongs to (see ``PlayerStreamSelection``).
  package struct Entry: Sendable, Equatable {
    package var sink: UInt32
    package var corked: Bool
    /// `application.process.id`, `.process.binary` and `application.name`.
    package var application = ApplicationProperties()
  }

  /// The proplist keys that tie a stream to an application.
  package struct ApplicationProperties: Sendable, Equatable {
    package var processID: Int32?
    package var binary: String?
    package var name: String?

    package init(processID: Int32? = nil, binary: String? = nil, name: String? = nil) {
      self.processID = processID
      self.binary = binary
      self.name = name
    }
  }

  private var entries: [UInt32: Entry] = [:]

  package init() {}

  /// Records a new or changed sink input.
  package mutating func update(
    index: UInt32, sink: UInt32, corked: Bool,
    application: ApplicationProperties = ApplicationProperties()
  ) {
    entries[index] = Entry(sink: sink, corked: corked, application: application)
  }

  /// The sink a sink input plays into, if it is known.
  package func sink(of index: UInt32) -> UInt32? { entries[index]?.sink }

  /// The sink inputs (those on `sink`, when given) as ``PlaybackStream``s, for
  /// ``PlayerStreamSelection``.
  package func playbackStreams(onSink sink: UInt32? = nil) -> [PlaybackStream] {
    entries.filter { sink == nil || $0.value.sink == sink }.map { index, entry in
      PlaybackStream(
        id: index, processID: entry.application.processID, binary: entry.application.binary,
        applicationName: entry.application.name, running: !entry.corked)
    }
  }

  /// Forgets a sink input that went away.
  package mutating func remove(index: UInt32) { entries[index] = nil }

  /// Forgets everything (the connection was lost).
  package mutating func removeAll() { entries.removeAll() }

  /// What plays into `sink`: `.running` if any stream is uncorked, `.corked` if
  /// streams exist but all are corked, `.none` otherwise.
  package func activity(onSink sink: UInt32) -> StreamActivity {
    var result = StreamActivity.none
    for entry in entries.values where entry.sink == sink {
      if !entry.corked { return .running }
      result = .corked
    }
    return result
  }
}

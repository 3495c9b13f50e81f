import PulseBarCore

/// The sink inputs (playback streams) the server reported, by index, and what
/// they add up to for one sink: none, all corked, or at least one running.
package struct SinkInputTable: Sendable, Equatable {
  /// One playback stream: the sink it plays into and whether its player corked it.
  package struct Entry: Sendable, Equatable {
    package var sink: UInt32
    package var corked: Bool
  }

  private var entries: [UInt32: Entry] = [:]

  package init() {}

  /// Records a new or changed sink input.
  package mutating func update(index: UInt32, sink: UInt32, corked: Bool) {
    entries[index] = Entry(sink: sink, corked: corked)
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

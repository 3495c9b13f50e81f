/// A record stream the core asks for.
package struct RecordRequest: Sendable, Equatable {
  /// What a record stream records.
  package enum Recording: Sendable, Equatable {
    /// A source by name: the default sink's monitor, or the source the user named.
    case source(String)
    /// One playback stream alone (a sink input on its sink's monitor; a stream node).
    case serverStream(UInt32)
  }

  package var id: RecordStreamID
  package var recording: Recording
  /// Record s16 (the source's own format); else float.
  package var int16: Bool
  package var fragment: FragmentSize
  /// Start corked.
  package var corked: Bool
  /// The server must not move it (a named source stays where it was asked to be).
  package var pinned: Bool

  package init(
    id: RecordStreamID, recording: Recording, int16: Bool, fragment: FragmentSize,
    corked: Bool = false, pinned: Bool = false
  ) {
    self.id = id
    self.recording = recording
    self.int16 = int16
    self.fragment = fragment
    self.corked = corked
    self.pinned = pinned
  }
}

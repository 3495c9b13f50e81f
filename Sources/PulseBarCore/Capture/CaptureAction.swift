/// A record stream's fragment, as the core decides it; the adapter turns it into bytes with
/// its own settings (sample rate, channels, the analysis rate).
package enum FragmentSize: Sendable, Equatable {
  /// The small fragment music starts with (PulseAudio).
  case onset
  /// The fragment once music plays steadily (PulseAudio).
  case steady
  /// One quantum of the graph running at `graphRate` (pipewire-pulse), throughout.
  case quantum(graphRate: UInt32)
}

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

/// What the capture publishes in the buffer's status: connected or not, what plays, what is
/// recorded (json's `source`), and whether others' sound plays while the player does not.
package struct CapturePublication: Sendable, Equatable {
  package var connected = false
  package var activity = StreamActivity.none
  package var sourceName = ""
  package var othersPlay = false

  package init() {}
}

/// What the capture core decides, for the adapter to carry out in this order as library calls.
package enum CaptureAction: Sendable, Equatable {
  /// Connect to the server (a failure comes back as ``CaptureEvent/serverLost(reason:)``).
  case connect
  /// Drop the connection (every record stream is closed first).
  case disconnect
  /// Ask which server it is and its default sink (``CaptureEvent/serverDescribed(onPipeWire:defaultSink:)``).
  case describeServer
  /// Ask for a sink by name (``CaptureEvent/sinkDescribed(_:)``).
  case describeSink(String)
  /// Ask for a source by name (``CaptureEvent/sourceDescribed(_:)`` or ``CaptureEvent/sourceMissing(_:)``).
  case describeSource(String)
  /// Make and connect a record stream.
  case open(RecordRequest)
  /// Disconnect and free a record stream; it never calls back again.
  case close(RecordStreamID)
  /// Cork (`true`) or uncork a record stream.
  case cork(RecordStreamID, Bool)
  /// Ask for another fragment size on a record stream.
  case setFragment(RecordStreamID, FragmentSize)
  /// The player's streams are summed in these lanes, in this order; what lanes held is dropped.
  case mix([RecordStreamID])
  /// Drop the audio buffered so far and start a new generation under `sourceName` (the engine
  /// drops its history); with `markingSwitch`, the restart is marked as no onset.
  case startGeneration(markingSwitch: Bool, sourceName: String)
  /// The one timer fires at `at` (monotonic seconds), replacing what it was armed for.
  case armTimer(at: Double)
  /// The status to publish, whole: at most one, the last action of an event.
  case publish(CapturePublication)
  /// A log line (no prefix, no newline).
  case log(String)
  /// A debug line (`-v`).
  case debug(String)
}

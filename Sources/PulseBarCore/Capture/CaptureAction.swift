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

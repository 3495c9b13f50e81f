/// What ``PlayerCore`` asks its adapter to do, in order: calls to send, match rules to add or
/// remove, a snapshot to publish, a line to log. The adapter carries them out and decides
/// nothing.
package enum BusAction: Sendable, Equatable {
  /// Send `call`; its reply comes back as ``BusEvent/replied(call:_:)`` with this number.
  case call(UInt64, BusCall)
  /// Listen to connection `owner`'s `PropertiesChanged` and `Seeked` (its own match rules).
  case subscribe(owner: String)
  /// Stop listening to connection `owner`'s signals.
  case unsubscribe(owner: String)
  /// Publish the registry (the active player and the roster) with its track's finds.
  case publish
  /// Someone floods the bus: the loop pauses ``PlayerCore/floodPauseMilliseconds`` before it
  /// reads again, so the signals are read in batches.
  case pauseReading
  /// One `-v` line.
  case log(String)
}

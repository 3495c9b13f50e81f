/// Decides `playing`, `paused` or `stopped` from the capture side's stream activity
/// and whether the last frame held more than digital silence.
///
/// - `playing` while streams run and the signal was non-silent less than
///   `silenceTimeout` seconds ago (it turns `playing` on the very frame sound arrives);
/// - `paused` while streams exist but are corked, or run silent past the timeout;
/// - `stopped` while no stream exists.
///
/// Corking or losing every stream forgets the last sound, so only new sound plays again.
public struct PlaybackStateMachine: Sendable, Equatable {
  /// The state after the last ``advance(to:activity:signalPresent:)``.
  public private(set) var state: PlaybackState = .stopped
  /// Seconds of silence after which running streams count as paused.
  public let silenceTimeout: Double
  private var lastSignalTime: Double?

  public init(silenceTimeout: Double) {
    self.silenceTimeout = silenceTimeout
  }

  /// Steps to audio time `time`; returns true when the state changed.
  @discardableResult
  public mutating func advance(
    to time: Double, activity: StreamActivity, signalPresent: Bool
  ) -> Bool {
    let previous = state
    switch activity {
    case .none:
      lastSignalTime = nil
      state = .stopped
    case .corked:
      lastSignalTime = nil
      state = .paused
    case .running:
      if signalPresent { lastSignalTime = time }
      if let last = lastSignalTime, time - last < silenceTimeout {
        state = .playing
      } else {
        state = .paused
      }
    }
    return state != previous
  }
}

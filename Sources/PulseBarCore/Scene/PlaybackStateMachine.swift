/// Decides `playing`, `paused` or `stopped` from the capture side's stream activity
/// and whether the last frame held more than digital silence.
///
/// What the inputs say at a given time (the *candidate*):
/// - `playing` while streams run and the signal was non-silent less than
///   `silenceTimeout` seconds ago;
/// - `paused` while streams exist but are corked, or run silent past the timeout;
/// - `stopped` while no stream exists.
///
/// Corking or losing every stream forgets the last sound, so only new sound plays again.
///
/// What is published (``state``) is debounced, so a bar never flickers:
/// - a candidate becomes the state once it has held for `debounce` seconds (150 ms by default,
///   `scene.state_debounce`); a candidate that flips back before then is never seen;
/// - `stopped`/`paused` → `playing` *with sound present in this frame* shows at once: sound
///   is unambiguous, and the onset must not lag;
/// - `stopped` → `paused` waits for `max(debounce, silenceTimeout)`. The audio server reports a
///   new stream as corked before it runs: 15–30 ms for a new stream or a sink switch, but about
///   a second when players reconnect after a server restart, longer than any flicker debounce
///   should be. A stream that has not yet played counts as `paused` only once it has stayed
///   corked or silent as long as a playing one must be silent to count as paused.
///
/// So no `paused` appears between `stopped` and `playing` on a new stream, a sink switch or a
/// server restart, and a state that changes for less than the debounce is not published.
package struct PlaybackStateMachine: Sendable, Equatable {
  /// The published state after the last ``advance(to:activity:signalPresent:)``.
  package private(set) var state: PlaybackState = .stopped
  /// Seconds of silence after which running streams count as paused.
  package let silenceTimeout: Double
  /// Seconds a new state must hold before it is published.
  package let debounce: Double
  private var lastSignalTime: Double?
  /// The candidate that differs from `state`, if any, and the audio time it began.
  private var pendingState: PlaybackState?
  private var pendingSince: Double = 0

  package init(silenceTimeout: Double, debounce: Double) {
    self.silenceTimeout = silenceTimeout
    self.debounce = debounce
  }

  /// True while a candidate state waits out its hold: the state may change with no new audio,
  /// so whoever drives the machine must keep stepping it.
  package var isSettling: Bool { pendingState != nil }

  /// Steps to audio time `time`; returns true when the published state changed.
  @discardableResult
  package mutating func advance(
    to time: Double, activity: StreamActivity, signalPresent: Bool
  ) -> Bool {
    let previous = state
    let candidate = candidateState(at: time, activity: activity, signalPresent: signalPresent)
    if candidate == state {
      pendingState = nil
    } else if candidate == .playing && signalPresent {
      state = .playing
      pendingState = nil
    } else {
      if pendingState != candidate {
        pendingState = candidate
        pendingSince = time
      }
      // A microsecond of slack: frame times are sums of 1/fps, and 1.15 − 1.0 < 0.15 in binary.
      if time - pendingSince >= hold(from: state, to: candidate) - 1e-6 {
        state = candidate
        pendingState = nil
      }
    }
    return state != previous
  }

  /// What the inputs say now, before the debounce.
  private mutating func candidateState(
    at time: Double, activity: StreamActivity, signalPresent: Bool
  ) -> PlaybackState {
    switch activity {
    case .none:
      lastSignalTime = nil
      return .stopped
    case .corked:
      lastSignalTime = nil
      return .paused
    case .running:
      if signalPresent { lastSignalTime = time }
      if let last = lastSignalTime, time - last < silenceTimeout { return .playing }
      return .paused
    }
  }

  /// How long `candidate` must hold before it replaces `current`.
  private func hold(from current: PlaybackState, to candidate: PlaybackState) -> Double {
    current == .stopped && candidate == .paused ? max(debounce, silenceTimeout) : debounce
  }
}

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
/// The active MPRIS player, when there is one, overrides the audio: while it says `Paused` or
/// `Stopped` the candidate is `paused` or `stopped` even if its stream lingers (mpv keeps its
/// stream open while paused); while it says `Playing`, or with no player, the audio decides.
/// A paused player makes no sound, though: sound that still comes ``pauseTail`` seconds after
/// it said so is someone else's (a program without MPRIS, while a browser tab sits paused for
/// days), and the audio decides again until the player's status next changes.
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
///   corked or silent as long as a playing one must be silent to count as paused;
/// - a candidate the player dictates waits only `debounce`: the player's word is not the audio
///   server's corked-before-running guess.
///
/// So no `paused` appears between `stopped` and `playing` on a new stream, a sink switch or a
/// server restart, and a state that changes for less than the debounce is not published.
package struct PlaybackStateMachine: Sendable, Equatable {
  /// The published state after the last ``advance(to:activity:signalPresent:)``.
  package private(set) var state: PlaybackState = .stopped
  /// Seconds of silence after which running streams count as paused.
  package private(set) var silenceTimeout: Double
  /// Seconds a new state must hold before it is published.
  package private(set) var debounce: Double
  private var lastSignalTime: Double?
  /// The candidate that differs from `state`, if any, and the audio time it began.
  private var pendingState: PlaybackState?
  private var pendingSince: Double = 0
  /// What the player said in the last step, when it began saying Paused or Stopped, and
  /// whether sound came after that beyond the tail (someone else is playing).
  private var lastPlayer: PlayerStatus?
  private var playerIdleSince: Double = 0
  private var othersAudible = false

  /// Seconds of sound a player may still produce after it says Paused (audio already on its way
  /// through the server); sound after that is not the player's.
  package static let pauseTail = 0.5

  package init(silenceTimeout: Double, debounce: Double) {
    self.silenceTimeout = silenceTimeout
    self.debounce = debounce
  }

  /// Takes new timings (a config reload) and keeps the state, the last sound and any
  /// candidate waiting out its hold: a reload does not flash `stopped` on a playing bar.
  package mutating func retime(silenceTimeout: Double, debounce: Double) {
    self.silenceTimeout = silenceTimeout
    self.debounce = debounce
  }

  /// True while a candidate state waits out its hold: the state may change with no new audio,
  /// so whoever drives the machine must keep stepping it.
  package var isSettling: Bool { pendingState != nil }

  /// Steps to audio time `time`; returns true when the published state changed. `player` is
  /// what the active MPRIS player says, `nil` without one.
  @discardableResult
  package mutating func advance(
    to time: Double, activity: StreamActivity, signalPresent: Bool, player: PlayerStatus? = nil
  ) -> Bool {
    let previous = state
    // The audio's candidate is worked out even when the player overrides it: it keeps the
    // last-sound bookkeeping current for when the player plays again.
    var candidate = candidateState(at: time, activity: activity, signalPresent: signalPresent)
    let fromPlayer = playerOverrides(player, at: time, signalPresent: signalPresent)
    if fromPlayer { candidate = player == .stopped ? .stopped : .paused }
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
      let hold = fromPlayer ? debounce : hold(from: state, to: candidate)
      // A microsecond of slack: frame times are sums of 1/fps, and 1.15 − 1.0 < 0.15 in binary.
      if time - pendingSince >= hold - 1e-6 {
        state = candidate
        pendingState = nil
      }
    }
    return state != previous
  }

  /// True when the player's Paused or Stopped decides the candidate (see ``pauseTail``).
  private mutating func playerOverrides(
    _ player: PlayerStatus?, at time: Double, signalPresent: Bool
  ) -> Bool {
    let idle = player == .paused || player == .stopped
    let wasIdle = lastPlayer == .paused || lastPlayer == .stopped
    lastPlayer = player
    guard idle else {
      othersAudible = false
      return false
    }
    if !wasIdle {
      playerIdleSince = time
      othersAudible = false
    }
    if signalPresent && time - playerIdleSince > Self.pauseTail { othersAudible = true }
    return !othersAudible
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

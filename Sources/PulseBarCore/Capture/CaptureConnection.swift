/// The connection to the audio server as the capture core sees it: where it stands, and when
/// to try again after an outage (``OutagePolicy``: said once, retried with back-off). A part the
/// core owns; it knows nothing of streams.
package struct CaptureConnection: Sendable, Equatable {
  /// Where the connection stands.
  package enum State: Sendable, Equatable {
    /// No connection: the next attempt waits for the timer.
    case none
    case connecting
    case ready
    /// Stopped for good.
    case stopped
  }

  /// What to do when the timer fires.
  package enum TimerDecision: Sendable, Equatable {
    case connect
    case lookAgain
    case nothing
  }

  package private(set) var state = State.none
  /// The server is PipeWire (pipewire-pulse names itself so): learnt from each server info.
  package var onPipeWire = false
  private var outage = OutagePolicy()

  package init() {}

  package var isReady: Bool { state == .ready }

  /// Start connecting (the source starts): true when an attempt begins.
  package mutating func start() -> Bool {
    guard state == .none else { return false }
    state = .connecting
    return true
  }

  /// The timer fired: connect again after an outage, or look again while connected.
  package mutating func timerFired() -> TimerDecision {
    switch state {
    case .none:
      state = .connecting
      return .connect
    case .ready: return .lookAgain
    case .connecting, .stopped: return .nothing
    }
  }

  /// The server answered: `nil` when that was not awaited, else whether an outage was said
  /// (so its end is said too).
  package mutating func connected() -> Bool? {
    guard state == .connecting else { return nil }
    state = .ready
    return outage.connected()
  }

  /// The server went away or refused us: whether to say so and when to try again (`nil`:
  /// stopped, nothing to do).
  package mutating func lost() -> OutagePolicy.Retry? {
    guard state != .stopped else { return nil }
    state = .none
    return outage.lost()
  }

  /// Stop for good: true when it was not stopped yet.
  package mutating func stop() -> Bool {
    guard state != .stopped else { return false }
    state = .stopped
    return true
  }

  /// A record stream failed while connected: seconds until it is made again.
  package mutating func failedWhileConnected() -> Double { outage.failedWhileConnected() }
}

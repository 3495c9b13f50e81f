/// The capture's decisions for an audio server, as one pure value in the style of
/// ``EngineCore`` and swift-nio's protocol state machines: the adapter (libpulse's callbacks,
/// PipeWire's registry and metadata) hands in what happened with its time (``handle(_:at:)``) and
/// carries out the ``CaptureAction``s that come back, as library calls, in order.
///
/// It holds the server's playback streams in one model (``ServerStreamTable``) and composes
/// its parts, which never call each other: the connection and its outages
/// (``CaptureConnection``), the output's stream (``OutputCapture``: the default sink followed,
/// its fragment and cork) and the player's streams (``PlayerCapture``). Whether to cork, which
/// fragment, when the player's streams take over and when to look again are all decided here,
/// so they are tested with exact times and no server (`CaptureCore*Tests`).
///
/// It has no thread of its own: a value, owned and driven by one adapter on its loop.
package struct CaptureCore: Sendable {
  package let configuration: CaptureConfiguration
  package internal(set) var connection = CaptureConnection()
  package internal(set) var serverStreams = ServerStreamTable()
  package internal(set) var output: OutputCapture
  package internal(set) var player: PlayerCapture
  /// The status as decided, and as last published (once per event, at the end of its actions).
  package internal(set) var published = CapturePublication()
  var emitted = CapturePublication()
  /// The last record stream id given out; the time of the event being handled; the actions
  /// decided while handling it.
  var lastStreamID: UInt64 = 0
  var now = 0.0
  var actions: [CaptureAction] = []

  package init(_ configuration: CaptureConfiguration) {
    self.configuration = configuration
    output = OutputCapture(followsDefault: configuration.namedSource == nil)
    player = PlayerCapture(
      scope: configuration.scope, namedSource: configuration.namedSource != nil)
  }

  /// Whether a fragment of record stream `id` goes into the buffer: the output's until one of
  /// the player's streams delivers, the player's from then on (two signals never interleave).
  package func keepsFragments(of id: RecordStreamID) -> Bool {
    output.stream?.id == id ? !player.recordsPlayer : player.recordsPlayer
  }

  /// Handles `event`, which happened at `now` (monotonic seconds): the actions to carry out,
  /// in order. A fragment with nothing to decide returns an empty array (no allocation).
  package mutating func handle(_ event: CaptureEvent, at now: Double) -> [CaptureAction] {
    self.now = now
    switch event {
    case .start, .timerFired, .connected, .serverLost, .stop: connectionEvent(event)
    case .playerChanged(let identity): if player.follow(identity) { reconcile() }
    case .reconfigured(let scope, let format, let steadyFragment):
      reconfigured(scope: scope, format: format, steadyFragment: steadyFragment)
    case .serverDescribed, .sinkDescribed, .sourceDescribed, .sourceMissing: described(event)
    case .devicesChanged: describeServer()
    case .streamUpdated(let stream):
      serverStreams.update(stream)
      player.failed.remove(stream.id)
      reconcile()
    case .streamRemoved(let id):
      serverStreams.remove(id: id)
      player.failed.remove(id)
      reconcile()
    case .recordStreamReady(let id): recordStreamReady(id)
    case .recordStreamEnded(let id): recordStreamGone(id, reason: nil)
    case .recordStreamRefused(let id, let reason): recordStreamGone(id, reason: reason)
    case .recordStreamMoved(let id, let source): recordStreamMoved(id, to: source)
    case .fragment(let id, let frames): fragment(id, frames: frames)
    case .delivered(let id):
      if player.delivered(id, wording: configuration.wording, actions: &actions) {
        updateActivity()
      }
    }
    if published != emitted {
      emitted = published
      actions.append(.publish(published))
    }
    defer { actions = [] }
    return actions
  }

  // MARK: - The connection

  private mutating func connectionEvent(_ event: CaptureEvent) {
    switch event {
    case .start: if connection.start() { actions.append(.connect) }
    case .timerFired:
      switch connection.timerFired() {
      case .connect: actions.append(.connect)
      case .lookAgain: describeServer()
      case .nothing: break
      }
    case .connected:
      guard let outageEnds = connection.connected() else { break }
      if outageEnds { log("connected again") }
      debug("connected to the server")
      publish { $0.connected = true }
      describeServer()
    case .serverLost(let reason): lost(reason: reason)
    case .stop: if connection.stop() { closeEverything() }
    default: break
    }
  }

  /// The server is gone or refused us: say so once per outage, drop everything, retry later.
  private mutating func lost(reason: String) {
    guard let retry = connection.lost() else { return }
    if retry.announce {
      log("\(reason); retrying with back-off (\(configuration.wording.outageHint))")
    }
    closeEverything()
    serverStreams.removeAll()
    player.failed.removeAll()
    output.follower.nothingToRecord()
    actions.append(.armTimer(at: now + retry.after))
  }

  /// Closes every record stream and the connection; publishes that nothing is connected.
  private mutating func closeEverything() {
    player.closeAll(actions: &actions)
    closeOutput()
    actions.append(.disconnect)
    publish {
      $0.connected = false
      $0.activity = .none
    }
  }

  /// A record stream failed while the server is there: make it again after the back-off.
  mutating func scheduleRetry() {
    actions.append(.armTimer(at: now + connection.failedWhileConnected()))
  }

  /// Changes the status; it is published when the event's actions are all decided.
  mutating func publish(_ change: (inout CapturePublication) -> Void) { change(&published) }

  /// A log line and a `-v` line with the server's prefix.
  mutating func log(_ line: String) { actions.append(configuration.wording.log(line)) }
  mutating func debug(_ line: String) { actions.append(configuration.wording.debug(line)) }
}

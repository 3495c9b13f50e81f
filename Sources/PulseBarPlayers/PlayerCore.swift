import PulseBarCore

/// The players' decisions, as one pure value in the shape of ``CaptureCore``: the adapter
/// (``PlayerSession``, sd-bus's callbacks) hands in what the bus said with the turn's time
/// (``handle(_:at:)``) and carries out the ``BusAction``s that come back, in order.
///
/// Everything decided about players is here, so it is tested with exact times and no bus
/// (`PlayerCore*Tests`): who owns a name (``PlayerRegistry``), what a signal means, when to
/// read a player again (one `GetAll` in flight per player, a silent one asked again later:
/// ``SilentPlayerRetries``), whose signals are heard (``PlayerSignalFollowing``), and where the
/// position is after a track change (``PlayerCore+Position``).
///
/// It has no thread and reads no clock: a value, owned and driven by its adapter on the
/// players' thread.
package struct PlayerCore: Sendable {
  package static let playerInterface = "org.mpris.MediaPlayer2.Player"
  /// How long a connection that overran its signal budget is not listened to.
  package static let floodMuteSeconds = 1.0
  /// How long the loop pauses while flooded before it reads the bus again.
  package static let floodPauseMilliseconds: Int32 = 20

  package internal(set) var registry = PlayerRegistry()
  /// The calls in flight, by number; a reply to a number not here no longer counts.
  package internal(set) var calls: [UInt64: BusCall] = [:]
  var lastCall: UInt64 = 0
  /// The `GetAll` in flight for each player: its call, and whether to ask again after it.
  var propertiesCalls: [String: (call: UInt64, askAgain: Bool)] = [:]
  /// The `Position` read that counts for each player (a newer track supersedes older reads).
  var positionCalls: [String: UInt64] = [:]
  /// The players whose position is being read again after their track changed.
  var settling: [String: PositionSettling] = [:]
  var silentRetries = SilentPlayerRetries()
  /// Whose signals are heard, and who is muted for a flood.
  var signals = PlayerSignalFollowing()
  /// Something the engine shows changed since the last publish.
  var changed = false
  var now = 0.0
  var actions: [BusAction] = []

  package init(preference: PlayerPreference = PlayerPreference()) {
    registry.preference = preference
  }

  /// When the core next has something to do with no message (a tick is due), or `nil`.
  package var nextDue: Double? {
    [signals.nextDue, silentRetries.nextDue, settling.values.compactMap(\.due).min()]
      .compactMap { $0 }.min()
  }

  /// Handles `event`, which happened at `now` (monotonic seconds, read once per turn by the
  /// driver): the actions to carry out, in order.
  package mutating func handle(_ event: BusEvent, at now: Double) -> [BusAction] {
    self.now = now
    actions.removeAll(keepingCapacity: true)
    switch event {
    case .started: call(.listNames)
    case .ownerChanged(let sender, let name, let newOwner):
      ownerChanged(sender: sender, name: name, newOwner: newOwner)
    case .propertiesChanged(let sender, let interface, let properties, let invalidated):
      propertiesChanged(
        sender: sender, interface: interface, properties: properties, invalidated: invalidated)
    case .seeked(let sender, let position):
      let names = admittedNames(of: sender)
      guard !names.isEmpty, let position else { break }
      for name in names { registry.update(name, position: position, at: now) }
      changed = true
    case .replied(let call, let reply):
      guard let asked = calls.removeValue(forKey: call) else { break }
      replied(call, asked, reply)
    case .preferenceChanged(let preference):
      registry.preference = preference
      changed = true
    case .findersReloaded: changed = true
    case .tick: tick()
    }
    return actions
  }

  // MARK: - Names

  private mutating func ownerChanged(sender: String?, name: String, newOwner: String) {
    guard sender == "org.freedesktop.DBus", PlayerRegistry.isPlayerName(name) else { return }
    let previousOwner = registry.players[name]?.owner
    forgetCalls(of: name)
    if newOwner.isEmpty {
      registry.vanished(name)
      silentRetries.vanished(name)
    } else {
      registry.appeared(name, owner: newOwner)
      silentRetries.forget(name)
      signals.follow(newOwner, actions: &actions)
      requestProperties(of: name, fresh: true)
      requestIdentity(of: name, owner: newOwner)
    }
    if let previousOwner, previousOwner != newOwner,
      registry.names(ownedBy: previousOwner).isEmpty
    {
      signals.forget(previousOwner, actions: &actions)
    }
    changed = true
  }

  /// The name is gone or has a new owner: its calls in flight no longer count (a `GetAll` is
  /// asked afresh of a new owner).
  private mutating func forgetCalls(of name: String) {
    if let pending = propertiesCalls.removeValue(forKey: name) { calls[pending.call] = nil }
    if let pending = positionCalls.removeValue(forKey: name) { calls[pending] = nil }
    settling[name] = nil
  }

  private mutating func tick() {
    for owner in signals.followAgain(at: now, actions: &actions) {
      for name in registry.names(ownedBy: owner) { requestProperties(of: name) }
    }
    for name in silentRetries.due(at: now) { requestProperties(of: name) }
    for (name, settle) in settling.sorted(by: { $0.key < $1.key })
    where settle.due.map({ $0 <= now }) == true {
      settling[name]?.asked()
      requestPosition(of: name, superseding: true)
    }
    if changed {
      changed = false
      actions.append(.publish)
    }
  }

  // MARK: - Calls

  /// Numbers `asked` and asks the adapter to send it.
  @discardableResult
  mutating func call(_ asked: BusCall) -> UInt64 {
    lastCall += 1
    calls[lastCall] = asked
    actions.append(.call(lastCall, asked))
    return lastCall
  }

  /// Asks a player for all its `Player` properties. With one call in flight already, the
  /// player is asked again once that one is answered (`fresh`: the name has a new owner, and
  /// the old call's reply no longer counts).
  mutating func requestProperties(of busName: String, fresh: Bool = false) {
    if let pending = propertiesCalls[busName] {
      guard fresh else {
        propertiesCalls[busName]?.askAgain = true
        return
      }
      calls[pending.call] = nil
    }
    propertiesCalls[busName] = (call(.properties(busName: busName)), false)
  }

  /// Asks who the player is: the process behind `owner` (unless known or asked already) and
  /// its desktop entry.
  mutating func requestIdentity(of busName: String, owner: String) {
    let asked = calls.values.contains(.processID(owner: owner))
    if !registry.knowsProcess(of: owner), !asked { call(.processID(owner: owner)) }
    call(.desktopEntry(busName: busName))
  }
}

internal import CSystemd
import PulseBarCore
import PulseBarSystem

/// The watcher's state on its thread: the connection, the players, the calls awaiting replies.
/// Confined to the watcher's thread once started: ``PlayerWatcher/start`` hands its connection
/// over to that thread (``BusConnection/moveToCurrentThread()``), and every message and call
/// goes through the connection, which asserts the thread in debug builds.
///
/// Players are untrusted (see ``PlayerRegistry`` and ``BusMessage``): one `GetAll` is in
/// flight per player at most (an invalidation meanwhile asks again once, after the reply), a
/// call times out after ``methodTimeoutMicroseconds`` (the player is asked again later:
/// ``SilentPlayerRetries``), and the snapshot is published once per
/// batch of messages, not per message. A player's signals (`PropertiesChanged`, `Seeked`)
/// come through match rules of its own connection (`sender=':1.42'`), added when it takes a
/// name and removed when it has none left; a connection whose signals overrun its
/// ``SignalBudget`` loses its match rules for ``PlayerSignals/floodMuteSeconds`` (the bus itself stops
/// sending them, so a flood costs next to nothing) and is then read afresh with a `GetAll`.
final class PlayerSession {
  let connection: BusConnection
  private let published: PlayerPublication
  private let preference: Mailbox<PlayerPreference>
  let debug: (String) -> Void
  var registry = PlayerRegistry()
  /// The active track's synced lyric and art colours, found here when the track changes.
  var finders = TrackFinders.none
  /// The `GetAll` in flight for each player: its cookie, and whether to ask again after it.
  private var inFlight: [String: (cookie: UInt64, askAgain: Bool)] = [:]
  /// The same calls by cookie: cookie → the bus name asked.
  private var pendingProperties: [UInt64: String] = [:]
  /// Calls that ask who a player is (its process, its desktop entry).
  private var identity = PlayerIdentityCalls()
  /// When each player that did not answer is asked again, and who was said not to (at `-v`).
  private var silentRetries = SilentPlayerRetries()
  /// Something the engine shows changed since the last publish.
  var changed = false
  /// After a signal with a new track, status or rate: the position alone, not a `GetAll`.
  var positions = PlayerPositionCalls()
  /// Whose signals are heard, and who is muted for a flood.
  private let signals: PlayerSignals

  static let playerInterface = "org.mpris.MediaPlayer2.Player"
  static let playerPath = "/org/mpris/MediaPlayer2"
  /// How long a player may take to answer (sd-bus's default is 25 s).
  static let methodTimeoutMicroseconds: UInt64 = 2_000_000

  /// Subscribes to the signals, then asks for the players already there (in that order, so
  /// none is missed in between).
  init(
    connection: BusConnection, published: PlayerPublication, preference: Mailbox<PlayerPreference>,
    initial: PlayerPreference, debug: @escaping (String) -> Void
  ) throws(BusError) {
    self.connection = connection
    self.published = published
    self.preference = preference
    self.debug = debug
    registry.preference = initial
    signals = PlayerSignals(connection: connection, debug: debug)
    let context = self.context
    // A player's own signals are matched per connection (``PlayerSignals/follow(_:)``).
    try connection.addLastingMatch(
      "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
        + "interface='org.freedesktop.DBus',member='NameOwnerChanged',"
        + "arg0namespace='org.mpris.MediaPlayer2'",
      context: context, handler: Self.signalHandler)
    let listNames = try connection.methodCall(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus", member: "ListNames")
    try connection.callAsync(
      listNames, context: context,
      handler: { message, context, _ in
        PlayerSession.from(context).namesListed(BusMessage(borrowing: message!))
        return 0
      })
  }

  /// Every match rule's handler: the signal to ``signalArrived(_:)``.
  static let signalHandler: sd_bus_message_handler_t = { message, context, _ in
    PlayerSession.from(context).signalArrived(BusMessage(borrowing: message!))
    return 0
  }

  /// What the session's callbacks get: the session, unretained (it outlives its calls).
  private var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  private static func from(_ context: UnsafeMutableRawPointer?) -> PlayerSession {
    Unmanaged<PlayerSession>.fromOpaque(context!).takeUnretainedValue()
  }

  /// Runs until `stop` is requested or the bus goes away.
  func run(stop: StopSignal, log: (String) -> Void) {
    var poll = PollSet()
    let state = connection.pollState
    let busIndex = poll.add(state.descriptor, state.events)
    poll.add(stop.descriptor)
    poll.add(preference.descriptor)
    for descriptor in finders.descriptors { poll.add(descriptor) }
    var stopOnly = PollSet()
    stopOnly.add(stop.descriptor)
    while !stop.isRequested {
      if signals.flooded {
        signals.flooded = false
        stopOnly.wait(timeoutMilliseconds: PlayerSignals.floodPauseMilliseconds)
        continue
      }
      do {
        try connection.processAll()
      } catch {
        log("\(error); MPRIS players are no longer followed")
        published.clear()
        return
      }
      if let preference = preference.take() {
        registry.preference = preference
        changed = true
      }
      if finders.takeReloads() { changed = true }
      let now = monotonicSeconds()
      let (followedAgain, nextReread) = signals.followMutedAgain(now: now, context: context)
      for owner in followedAgain {
        for name in registry.names(ownedBy: owner) { requestProperties(of: name) }
      }
      for name in silentRetries.due(at: now) { requestProperties(of: name) }
      if let due = finders.nextDue, due <= now { changed = true }
      if changed {
        changed = false
        finders.publish(registry, to: published, at: now, debug: debug)
      }
      let state = connection.pollState
      poll.update(busIndex, state.events)
      var timeout: Int32 = -1
      if let deadline = state.deadline {
        let now = monotonicNanoseconds()
        timeout = deadline <= now ? 0 : Int32(min(60_000, (deadline - now + 999_999) / 1_000_000))
      }
      for next in [nextReread, silentRetries.nextDue, finders.nextDue].compactMap({ $0 }) {
        let wait = Int32(max(1, min(60_000, ((next - monotonicSeconds()) * 1000).rounded(.up))))
        timeout = timeout < 0 ? wait : min(timeout, wait)
      }
      poll.wait(timeoutMilliseconds: timeout)
    }
  }

  // MARK: - Messages

  private func namesListed(_ reply: BusMessage) {
    guard let names = reply.readStrings() else { return }
    for name in names where PlayerRegistry.isPlayerName(name) {
      registry.appeared(name, owner: nil)
      requestProperties(of: name)
    }
  }

  /// Asks a player for all its `Player` properties; the reply lands in ``propertiesArrived(_:)``.
  /// With one call in flight already, the player is asked again once that one is answered
  /// (`fresh`: the name has a new owner, and the old call's reply no longer counts).
  func requestProperties(of busName: String, fresh: Bool = false) {
    if let pending = inFlight[busName] {
      guard fresh else {
        inFlight[busName]?.askAgain = true
        return
      }
      pendingProperties[pending.cookie] = nil
    }
    do {
      let call = try connection.methodCall(
        destination: busName, path: Self.playerPath,
        interface: "org.freedesktop.DBus.Properties", member: "GetAll",
        arguments: [Self.playerInterface])
      let cookie = try connection.callAsync(
        call, context: Unmanaged.passUnretained(self).toOpaque(),
        timeoutMicroseconds: Self.methodTimeoutMicroseconds,
        handler: { message, context, _ in
          PlayerSession.from(context).propertiesArrived(BusMessage(borrowing: message!))
          return 0
        })
      pendingProperties[cookie] = busName
      inFlight[busName] = (cookie, false)
    } catch {
      // The connection is failing; the loop notices and says so.
    }
  }

  private func propertiesArrived(_ reply: BusMessage) {
    guard let cookie = reply.replyCookie,
      let busName = pendingProperties.removeValue(forKey: cookie)
    else { return }
    let askAgain = inFlight.removeValue(forKey: busName)?.askAgain ?? false
    // A name released meanwhile has no player: its late reply changes nothing.
    guard registry.players[busName] != nil else { return }
    if let error = reply.errorText {
      // A player that does not answer is still a player (stopped, no track).
      if silentRetries.noAnswer(from: busName, at: monotonicSeconds()) {
        debug("MPRIS: \(busName) did not answer (\(error)); shown as stopped, asked again later")
      }
      registry.loaded(busName)
      changed = true
    } else if let sender = reply.sender {
      let ownerWasKnown = registry.players[busName]?.owner != nil
      guard registry.isOwner(busName, sender) else { return }
      silentRetries.forget(busName)
      registry.loaded(busName)
      apply(properties: reply, to: [busName])
      if !ownerWasKnown {
        // Listed at start-up: its signals are followed from now on, and what changed before
        // the match rules took hold is read once more.
        signals.follow(sender, context: context)
        requestProperties(of: busName)
        requestIdentity(of: busName, owner: sender)
      }
    }
    if askAgain { requestProperties(of: busName) }
  }

  /// Asks who the player is: what ties its audio streams to it.
  private func requestIdentity(of busName: String, owner: String) {
    identity.ask(
      busName, owner: owner, processKnown: registry.knowsProcess(of: owner),
      connection: connection, context: context,
      handler: { message, context, _ in
        PlayerSession.from(context).identityArrived(BusMessage(borrowing: message!))
        return 0
      })
  }

  /// A process id or a desktop entry arrived; a desktop entry counts from the name's owner.
  private func identityArrived(_ reply: BusMessage) {
    switch identity.answer(reply) {
    case .process(let owner, let id): registry.update(owner: owner, processID: id)
    case .desktopEntry(let busName, let entry, let sender):
      guard registry.isOwner(busName, sender) else { return }
      registry.update(busName, desktopEntry: entry)
    case nil: return
    }
    changed = true
  }

  /// The names a signal from its sender speaks for, when its budget admits it
  /// (``PlayerSignals/admits(_:now:)``).
  private func admittedNames(of signal: BusMessage, now: Double) -> [String] {
    guard let sender = signal.sender else { return [] }
    let names = registry.names(ownedBy: sender)
    guard !names.isEmpty, signals.admits(sender, now: now) else { return [] }
    return names
  }

  /// A signal of the match rules, to its handler.
  private func signalArrived(_ signal: BusMessage) {
    switch signal.member {
    case "NameOwnerChanged": nameOwnerChanged(signal)
    case "Seeked": seeked(signal)
    case "PropertiesChanged": propertiesChanged(signal)
    default: break
    }
  }

  private func nameOwnerChanged(_ signal: BusMessage) {
    // (name, old owner, new owner), from the bus itself.
    guard signal.sender == "org.freedesktop.DBus", let name = signal.readString(),
      signal.readString() != nil, let newOwner = signal.readString(),
      PlayerRegistry.isPlayerName(name)
    else { return }
    let previousOwner = registry.players[name]?.owner
    if newOwner.isEmpty {
      registry.vanished(name)
      if let pending = inFlight.removeValue(forKey: name) {
        pendingProperties[pending.cookie] = nil
      }
      silentRetries.vanished(name)
    } else {
      registry.appeared(name, owner: newOwner)
      silentRetries.forget(name)
      signals.follow(newOwner, context: context)
      requestProperties(of: name, fresh: true)
      requestIdentity(of: name, owner: newOwner)
    }
    if let previousOwner, previousOwner != newOwner,
      registry.names(ownedBy: previousOwner).isEmpty
    {
      signals.forget(previousOwner)
    }
    changed = true
  }

  private func propertiesChanged(_ signal: BusMessage) {
    let names = admittedNames(of: signal, now: monotonicSeconds())
    guard !names.isEmpty, signal.readString() == Self.playerInterface else { return }
    let movesPosition = apply(properties: signal, to: names)
    let invalidated = signal.readStrings(limit: 64) ?? []
    if invalidated.contains(where: ["PlaybackStatus", "Metadata", "Rate", "Volume"].contains) {
      for name in names { requestProperties(of: name) }
    } else if movesPosition {
      for name in names { positions.ask(name, connection: connection, context: context) }
    }
  }

  /// `Seeked(x position)`: where playback jumped to.
  private func seeked(_ signal: BusMessage) {
    let now = monotonicSeconds()
    let names = admittedNames(of: signal, now: now)
    guard !names.isEmpty, let position = signal.readPosition() else { return }
    for name in names { registry.update(name, position: position, at: now) }
    changed = true
  }

  /// Reads an `a{sv}` of `Player` properties into the registry; says whether the track, the
  /// status or the rate was among them (the position moves differently from then on).
  @discardableResult
  private func apply(properties message: BusMessage, to names: [String]) -> Bool {
    let now = monotonicSeconds()
    let properties = message.readPlayerProperties()
    for name in names { registry.apply(properties, to: name, at: now) }
    let movesPosition =
      properties.status != nil || properties.metadata != nil || properties.rate != nil
    changed = true
    return movesPosition
  }
}

internal import CSystemd
import PulseBarCore
import PulseBarSystem

/// Follows every MPRIS player on the session bus, on a thread of its own, and hands the
/// engine the active player's state and track through a ``PlayerFeed``.
///
/// Event-driven only: the thread sleeps in `poll` on the bus connection (and a stop signal)
/// with no timeout unless a call awaits its reply, so it never wakes while nothing changes.
/// It asks the bus for the players once (`ListNames`, then each one's properties), then
/// follows `NameOwnerChanged` (players appearing and leaving) and `PropertiesChanged`
/// (`PlaybackStatus`, `Metadata`).
package final class PlayerWatcher: Sendable {
  /// Where the active player's snapshots arrive.
  package let feed: PlayerFeed
  private let stopSignal: StopSignal
  private let thread: PosixThread

  /// Connects to the session bus and starts following players; throws when there is no bus
  /// (the caller logs one line and carries on without players). `log` gets one line if the
  /// bus goes away later.
  package static func start(log: @escaping @Sendable (String) -> Void) throws(BusError)
    -> PlayerWatcher
  {
    let connection = try BusConnection()
    let feed = PlayerFeed()
    let stopSignal = StopSignal()
    let session = try PlayerSession(connection: connection, feed: feed)
    let thread = PosixThread.spawn {
      PosixThread.nameCurrent("pulsebar-mpris")
      session.run(stop: stopSignal, log: log)
    }
    return PlayerWatcher(feed: feed, stopSignal: stopSignal, thread: thread)
  }

  private init(feed: PlayerFeed, stopSignal: StopSignal, thread: PosixThread) {
    self.feed = feed
    self.stopSignal = stopSignal
    self.thread = thread
  }

  /// Stops the thread and closes the connection.
  package func stop() {
    stopSignal.request()
    thread.join()
  }
}

/// The watcher's state on its thread: the connection, the players, the calls awaiting replies.
/// Confined to the watcher's thread once started.
final class PlayerSession {
  private let connection: BusConnection
  private let feed: PlayerFeed
  private var registry = PlayerRegistry()
  /// `GetAll` calls awaiting their reply: cookie → the bus name asked.
  private var pendingProperties: [UInt64: String] = [:]

  static let playerInterface = "org.mpris.MediaPlayer2.Player"
  static let playerPath = "/org/mpris/MediaPlayer2"

  /// Subscribes to the signals, then asks for the players already there (in that order, so
  /// none is missed in between).
  init(connection: BusConnection, feed: PlayerFeed) throws(BusError) {
    self.connection = connection
    self.feed = feed
    let context = Unmanaged.passUnretained(self).toOpaque()
    try connection.addMatch(
      "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
        + "interface='org.freedesktop.DBus',member='NameOwnerChanged',"
        + "arg0namespace='org.mpris.MediaPlayer2'",
      context: context,
      handler: { message, context, _ in
        PlayerSession.from(context).nameOwnerChanged(BusMessage(borrowing: message!))
        return 0
      })
    try connection.addMatch(
      "type='signal',path='\(Self.playerPath)',interface='org.freedesktop.DBus.Properties',"
        + "member='PropertiesChanged',arg0='\(Self.playerInterface)'",
      context: context,
      handler: { message, context, _ in
        PlayerSession.from(context).propertiesChanged(BusMessage(borrowing: message!))
        return 0
      })
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

  private static func from(_ context: UnsafeMutableRawPointer?) -> PlayerSession {
    Unmanaged<PlayerSession>.fromOpaque(context!).takeUnretainedValue()
  }

  /// Runs until `stop` is requested or the bus goes away.
  func run(stop: StopSignal, log: (String) -> Void) {
    var poll = PollSet()
    let state = connection.pollState
    let busIndex = poll.add(state.descriptor, state.events)
    poll.add(stop.descriptor)
    while !stop.isRequested {
      do {
        try connection.processAll()
      } catch {
        log("\(error); MPRIS players are no longer followed")
        feed.publish(nil)
        return
      }
      let state = connection.pollState
      poll.update(busIndex, state.events)
      var timeout: Int32 = -1
      if let deadline = state.deadline {
        let now = monotonicNanoseconds()
        timeout = deadline <= now ? 0 : Int32(min(60_000, (deadline - now + 999_999) / 1_000_000))
      }
      poll.wait(timeoutMilliseconds: timeout)
    }
  }

  // MARK: - Messages

  private func namesListed(_ reply: BusMessage) {
    guard let names = reply.readStrings() else { return }
    for name in names where PlayerRegistry.isPlayerName(name) { requestProperties(of: name) }
  }

  /// Asks a player for all its `Player` properties; the reply lands in ``propertiesArrived(_:)``.
  private func requestProperties(of busName: String) {
    do {
      let call = try connection.methodCall(
        destination: busName, path: Self.playerPath,
        interface: "org.freedesktop.DBus.Properties", member: "GetAll",
        arguments: [Self.playerInterface])
      let cookie = try connection.callAsync(
        call, context: Unmanaged.passUnretained(self).toOpaque(),
        handler: { message, context, _ in
          PlayerSession.from(context).propertiesArrived(BusMessage(borrowing: message!))
          return 0
        })
      pendingProperties[cookie] = busName
    } catch {
      // The connection is failing; the loop notices and says so.
    }
  }

  private func propertiesArrived(_ reply: BusMessage) {
    guard let cookie = reply.replyCookie, let busName = pendingProperties[cookie] else { return }
    pendingProperties[cookie] = nil
    guard reply.errorText == nil, let owner = reply.sender else {
      // A player that does not answer is still a player (stopped, no track).
      registry.loaded(busName)
      publish()
      return
    }
    if registry.players[busName] == nil { registry.appeared(busName, owner: owner) }
    registry.loaded(busName)
    apply(properties: reply, to: [busName])
  }

  private func nameOwnerChanged(_ signal: BusMessage) {
    // (name, old owner, new owner)
    guard let name = signal.readString(), signal.readString() != nil,
      let newOwner = signal.readString(), PlayerRegistry.isPlayerName(name)
    else { return }
    if newOwner.isEmpty {
      registry.vanished(name)
    } else {
      registry.appeared(name, owner: newOwner)
      requestProperties(of: name)
    }
    publish()
  }

  private func propertiesChanged(_ signal: BusMessage) {
    guard let sender = signal.sender, signal.readString() == Self.playerInterface else { return }
    let names = registry.names(ownedBy: sender)
    guard !names.isEmpty else { return }
    apply(properties: signal, to: names)
    // Properties the player only says changed, without their value: ask for them.
    if let invalidated = signal.readStrings(),
      invalidated.contains("PlaybackStatus") || invalidated.contains("Metadata")
    {
      for name in names { requestProperties(of: name) }
    }
  }

  /// Reads an `a{sv}` of `Player` properties into the registry, then publishes.
  private func apply(properties message: BusMessage, to names: [String]) {
    message.forEachProperty { key, type in
      switch (key, type) {
      case ("PlaybackStatus", "s"):
        guard let text = message.readString() else { return true }
        let status = PlayerStatus(rawValue: text) ?? .stopped
        for name in names { registry.update(name, status: status) }
      case ("Metadata", "a{sv}"):
        let metadata = message.readMetadata()
        for name in names { registry.update(name, metadata: metadata) }
      default:
        return false
      }
      return true
    }
    publish()
  }

  private func publish() { feed.publish(registry.nowPlaying) }
}

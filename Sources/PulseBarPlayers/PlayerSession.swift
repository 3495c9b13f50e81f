internal import CSystemd
import PulseBarCore
import PulseBarSystem

/// The players' sd-bus adapter and driver: it reads messages into ``BusEvent``s for its
/// ``PlayerCore``, carries out the ``BusAction``s that come back (calls, match rules, the
/// publish), and owns the loop, whose clock it reads once a turn. It decides nothing about
/// players: every choice on what the bus said is the core's.
///
/// Confined to the watcher's thread once started: ``PlayerWatcher/start`` hands its connection
/// over to that thread (``BusConnection/moveToCurrentThread()``), and every message and call
/// goes through the connection, which asserts the thread in debug builds.
final class PlayerSession {
  let connection: BusConnection
  private let published: PlayerPublication
  private let preference: Mailbox<PlayerPreference>
  let debug: (String) -> Void
  private(set) var core: PlayerCore
  /// The active track's synced lyric and art colours, found here when the track changes.
  var finders = TrackFinders.none
  /// The calls sent: sd-bus's cookie → the core's number for the call, and what it asked.
  private var sent: [UInt64: (call: UInt64, asked: BusCall)] = [:]
  /// The players' match rules.
  private let signals: PlayerSignals
  /// The turn's time, read once a turn by ``run(stop:log:)``: every event of the turn has it.
  private var now = 0.0
  /// The core said someone floods the bus: the loop pauses before it reads again.
  private var flooded = false

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
    core = PlayerCore(preference: initial)
    signals = PlayerSignals(connection: connection)
    // A player's own signals are matched per connection (``PlayerSignals/follow(_:context:)``).
    try connection.addLastingMatch(
      "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
        + "interface='org.freedesktop.DBus',member='NameOwnerChanged',"
        + "arg0namespace='org.mpris.MediaPlayer2'",
      context: context, handler: Self.signalHandler)
    handle(.started)
  }

  /// Every match rule's handler: the signal to ``signalArrived(_:)``.
  static let signalHandler: sd_bus_message_handler_t = { message, context, _ in
    PlayerSession.from(context).signalArrived(BusMessage(borrowing: message!))
    return 0
  }

  /// Every call's handler: the reply to ``replyArrived(_:)``.
  private static let replyHandler: sd_bus_message_handler_t = { message, context, _ in
    PlayerSession.from(context).replyArrived(BusMessage(borrowing: message!))
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
      if flooded {
        flooded = false
        stopOnly.wait(timeoutMilliseconds: PlayerCore.floodPauseMilliseconds)
        continue
      }
      // The turn's one clock read.
      let nanoseconds = monotonicNanoseconds()
      now = Double(nanoseconds) / 1e9
      do {
        try connection.processAll()
      } catch {
        log("\(error); MPRIS players are no longer followed")
        published.clear()
        return
      }
      if let preference = preference.take() { handle(.preferenceChanged(preference)) }
      // A finder wants the track published again: a lyric text's or an art URL's turn, a
      // read to retry.
      if finders.takeReloads() || finders.nextDue.map({ $0 <= now }) == true {
        handle(.findersReloaded)
      }
      handle(.tick)
      let state = connection.pollState
      poll.update(busIndex, state.events)
      var timeout: Int32 = -1
      if let deadline = state.deadline {
        timeout =
          deadline <= nanoseconds
          ? 0 : Int32(min(60_000, (deadline - nanoseconds + 999_999) / 1_000_000))
      }
      for next in [core.nextDue, finders.nextDue].compactMap({ $0 }) {
        let wait = Int32(max(1, min(60_000, ((next - now) * 1000).rounded(.up))))
        timeout = timeout < 0 ? wait : min(timeout, wait)
      }
      poll.wait(timeoutMilliseconds: timeout)
    }
  }

  // MARK: - Events and actions

  /// Hands `event` to the core at the turn's time and carries out what it says.
  private func handle(_ event: BusEvent) {
    for action in core.handle(event, at: now) {
      switch action {
      case .call(let call, let asked): send(call, asked)
      case .subscribe(let owner): signals.follow(owner, context: context)
      case .unsubscribe(let owner): signals.unfollow(owner)
      case .publish: finders.publish(core.registry, to: published, at: now, debug: debug)
      case .pauseReading: flooded = true
      case .log(let line): debug(line)
      }
    }
  }

  /// Sends `asked` as the core's call `call`; its reply comes back to ``replyArrived(_:)``.
  private func send(_ call: UInt64, _ asked: BusCall) {
    let properties = "org.freedesktop.DBus.Properties"
    do {
      let message =
        switch asked {
        case .listNames:
          try connection.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: "ListNames")
        case .properties(let busName):
          try connection.methodCall(
            destination: busName, path: Self.playerPath, interface: properties, member: "GetAll",
            arguments: [PlayerCore.playerInterface])
        case .position(let busName):
          try connection.methodCall(
            destination: busName, path: Self.playerPath, interface: properties, member: "Get",
            arguments: [PlayerCore.playerInterface, "Position"])
        case .processID(let owner):
          try connection.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: "GetConnectionUnixProcessID",
            arguments: [owner])
        case .desktopEntry(let busName):
          try connection.methodCall(
            destination: busName, path: Self.playerPath, interface: properties, member: "Get",
            arguments: ["org.mpris.MediaPlayer2", "DesktopEntry"])
        }
      let cookie = try connection.callAsync(
        message, context: context, timeoutMicroseconds: Self.methodTimeoutMicroseconds,
        handler: Self.replyHandler)
      sent[cookie] = (call, asked)
    } catch {
      // The connection is failing; the loop notices and says so.
    }
  }

  /// A reply (or its timeout), read as its call asked, to the core.
  private func replyArrived(_ reply: BusMessage) {
    guard let cookie = reply.replyCookie, let (call, asked) = sent.removeValue(forKey: cookie)
    else { return }
    handle(.replied(call: call, Self.read(reply, answering: asked)))
  }

  /// What `reply` holds, read as the answer to `asked`.
  static func read(_ reply: BusMessage, answering asked: BusCall) -> BusReply {
    if let error = reply.errorText { return .failed(error) }
    let sender = reply.sender
    switch asked {
    case .listNames: return .names(reply.readStrings())
    case .properties: return .properties(sender: sender, reply.readPlayerProperties())
    case .position:
      return .position(
        sender: sender, reply.enter(UInt8(ascii: "v"), "x") ? reply.readPosition() : nil)
    case .processID:
      return .processID(sender: sender, reply.readNumber(type: UInt8(ascii: "u")))
    case .desktopEntry:
      return .desktopEntry(
        sender: sender,
        reply.enter(UInt8(ascii: "v"), "s") ? reply.readString(maximumBytes: 255) : nil)
    }
  }

  /// A signal of the match rules, read into its event.
  private func signalArrived(_ signal: BusMessage) {
    let sender = signal.sender
    switch signal.member {
    case "NameOwnerChanged":
      // (name, old owner, new owner).
      guard let name = signal.readString(), signal.readString() != nil,
        let newOwner = signal.readString()
      else { return }
      handle(.ownerChanged(sender: sender, name: name, newOwner: newOwner))
    case "Seeked": handle(.seeked(sender: sender, position: signal.readPosition()))
    case "PropertiesChanged":
      let interface = signal.readString()
      let properties = signal.readPlayerProperties()
      let invalidated = signal.readStrings(limit: 64) ?? []
      handle(
        .propertiesChanged(
          sender: sender, interface: interface, properties: properties, invalidated: invalidated))
    default: break
    }
  }
}

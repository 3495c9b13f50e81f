internal import CSystemd
import PulseBarCore

/// Who a player is, asked of the bus and of the player: the process behind its connection
/// (`GetConnectionUnixProcessID`) and its `DesktopEntry`, what ties its audio streams to it
/// (``PlayerStreamSelection``). Calls time out as the session's do; a reply that fails, or
/// comes from someone else than the name's owner, says nothing.
///
/// Confined to the players' thread, as its ``PlayerSession`` is: it lives in the session, and
/// every call it makes goes through the session's ``BusConnection``, which asserts the thread
/// in debug builds.
struct PlayerIdentityCalls {
  /// What one call asks.
  private enum Call {
    case process(owner: String)
    case desktopEntry(busName: String)
  }

  /// What a reply said.
  enum Answer {
    case process(owner: String, id: Int32)
    case desktopEntry(busName: String, entry: String, sender: String)
  }

  /// The calls in flight, by cookie.
  private var calls: [UInt64: Call] = [:]

  /// Asks the process behind `owner` (unless `processKnown` or already asked) and `busName`'s
  /// `DesktopEntry`; replies go to `handler` with `context`.
  mutating func ask(
    _ busName: String, owner: String, processKnown: Bool, connection: BusConnection,
    context: UnsafeMutableRawPointer, handler: sd_bus_message_handler_t
  ) {
    var wanted: [(BusMessage, Call)] = []
    let asked = calls.values.contains {
      if case .process(let pending) = $0 { return pending == owner }
      return false
    }
    if !processKnown, !asked,
      let call = try? connection.methodCall(
        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus", member: "GetConnectionUnixProcessID",
        arguments: [owner])
    {
      wanted.append((call, .process(owner: owner)))
    }
    if let call = try? connection.methodCall(
      destination: busName, path: PlayerSession.playerPath,
      interface: "org.freedesktop.DBus.Properties", member: "Get",
      arguments: ["org.mpris.MediaPlayer2", "DesktopEntry"])
    {
      wanted.append((call, .desktopEntry(busName: busName)))
    }
    for (call, kind) in wanted {
      guard
        let cookie = try? connection.callAsync(
          call, context: context, timeoutMicroseconds: PlayerSession.methodTimeoutMicroseconds,
          handler: handler)
      else { continue }
      calls[cookie] = kind
    }
  }

  /// Whether `reply` answers one of these calls.
  func isAnswer(_ reply: BusMessage) -> Bool {
    reply.replyCookie.map { calls[$0] != nil } ?? false
  }

  /// What `reply` said, checked (a process id from the bus itself, in the kernel's range; a
  /// desktop entry of at most 255 bytes), or `nil`.
  mutating func answer(_ reply: BusMessage) -> Answer? {
    guard let cookie = reply.replyCookie, let call = calls.removeValue(forKey: cookie),
      reply.errorText == nil
    else { return nil }
    switch call {
    case .process(let owner):
      guard reply.sender == "org.freedesktop.DBus",
        let pid = reply.readNumber(type: UInt8(ascii: "u")), pid > 1, pid < 4_194_304
      else { return nil }
      return .process(owner: owner, id: Int32(pid))
    case .desktopEntry(let busName):
      guard let sender = reply.sender, reply.enter(UInt8(ascii: "v"), "s"),
        let entry = reply.readString(maximumBytes: 255)
      else { return nil }
      return .desktopEntry(busName: busName, entry: entry, sender: sender)
    }
  }
}

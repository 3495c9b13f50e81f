internal import CSystemd
import PulseBarCore
import PulseBarSystem

/// The `Position` asked of a player after a signal that carried a new track, status or rate:
/// the signal's own values are applied as they came, and the position, which no signal
/// carries, is the one thing left to read. One `Get` instead of a `GetAll`, so a track change
/// is read once. One call in flight per player; a reply counts only from the name's owner.
///
/// Confined to the players' thread, as its ``PlayerSession`` is: it lives in the session, and
/// every call it makes goes through the session's ``BusConnection``, which asserts the thread
/// in debug builds.
struct PlayerPositionCalls {
  /// The calls in flight: cookie → the bus name asked.
  private var calls: [UInt64: String] = [:]

  /// Asks `busName` for its `Position`, unless a call to it is in flight already.
  mutating func ask(
    _ busName: String, connection: BusConnection, context: UnsafeMutableRawPointer
  ) {
    guard !calls.values.contains(busName),
      let call = try? connection.methodCall(
        destination: busName, path: PlayerSession.playerPath,
        interface: "org.freedesktop.DBus.Properties", member: "Get",
        arguments: [PlayerSession.playerInterface, "Position"]),
      let cookie = try? connection.callAsync(
        call, context: context, timeoutMicroseconds: PlayerSession.methodTimeoutMicroseconds,
        handler: Self.handler)
    else { return }
    calls[cookie] = busName
  }

  /// The name a reply answers for, and the position it holds when it is one (an `x` in a
  /// variant, from the name's owner in `registry`), once.
  mutating func answer(_ reply: BusMessage, registry: inout PlayerRegistry) -> (String, Int64)? {
    guard let cookie = reply.replyCookie, let busName = calls.removeValue(forKey: cookie),
      reply.errorText == nil, let sender = reply.sender, registry.isOwner(busName, sender),
      reply.enter(UInt8(ascii: "v"), "x"), let position = reply.readPosition()
    else { return nil }
    return (busName, position)
  }

  /// The replies' handler: the position into the session's registry.
  private static let handler: sd_bus_message_handler_t = { message, context, _ in
    let session = Unmanaged<PlayerSession>.fromOpaque(context!).takeUnretainedValue()
    if let (busName, position) = session.positions.answer(
      BusMessage(borrowing: message!), registry: &session.registry)
    {
      session.registry.update(busName, position: position, at: monotonicSeconds())
      session.changed = true
    }
    return 0
  }
}

internal import CSystemd
import PulseBarCore

/// The match rules through which the session hears each player connection's signals
/// (`sender=':1.42'`): added and removed as ``PlayerCore`` says (``BusAction/subscribe(owner:)``,
/// ``BusAction/unsubscribe(owner:)``). A connection muted for a flood has none, so the bus
/// itself stops sending its signals.
///
/// Confined to the players' thread, as its ``PlayerSession`` is: each call asserts it in debug
/// builds through the session's ``BusConnection``.
final class PlayerSignals {
  private let connection: BusConnection
  /// The match rules of each followed connection (its slots), by unique name.
  private var matches: [String: [OpaquePointer]] = [:]

  init(connection: BusConnection) {
    self.connection = connection
  }

  /// The slots still held go before the connection (each holds a reference to the bus). The
  /// players' thread has ended by then (``PlayerWatcher/stop()`` joins it).
  deinit {
    for slot in matches.values.joined() { sd_bus_slot_unref(slot) }
  }

  /// Listens to the `PropertiesChanged` and `Seeked` of connection `owner` (a player's). The
  /// rules' handler gets `context` (the session).
  func follow(_ owner: String, context: UnsafeMutableRawPointer) {
    connection.assertConfined()
    guard matches[owner] == nil else { return }
    let path = PlayerSession.playerPath
    let interface = PlayerCore.playerInterface
    let rules = [
      "type='signal',sender='\(owner)',path='\(path)',"
        + "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
        + "arg0='\(interface)'",
      "type='signal',sender='\(owner)',path='\(path)',interface='\(interface)',member='Seeked'",
    ]
    var slots: [OpaquePointer] = []
    for rule in rules {
      if let slot = try? connection.addMatch(
        rule, context: context, handler: PlayerSession.signalHandler)
      {
        slots.append(slot)
      }
    }
    matches[owner] = slots
  }

  /// Stops listening to connection `owner`'s signals.
  func unfollow(_ owner: String) {
    connection.assertConfined()
    for slot in matches.removeValue(forKey: owner) ?? [] { connection.removeMatch(slot) }
  }
}

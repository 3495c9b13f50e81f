internal import CSystemd
import PulseBarCore

/// Which players' signals the session hears: each player connection's `PropertiesChanged` and
/// `Seeked` come through match rules of its own (`sender=':1.42'`), and a connection that
/// overruns its ``SignalBudget`` loses them for ``floodMuteSeconds`` (the bus itself stops
/// sending them, so a flood costs next to nothing), then is followed again.
///
/// Confined to the players' thread, as its ``PlayerSession`` is: each call asserts it in debug
/// builds through the session's ``BusConnection``.
final class PlayerSignals {
  private let connection: BusConnection
  private let debug: (String) -> Void
  /// Each connection's signal budget, by unique name.
  private var budgets: [String: SignalBudget] = [:]
  /// The match rules of each followed connection (its slots), by unique name.
  private var matches: [String: [OpaquePointer]] = [:]
  /// Connections muted for a flood, and when they are followed again.
  private var muted: [String: Double] = [:]
  /// How long a connection that overran its signal budget is not listened to.
  static let floodMuteSeconds = 1.0
  /// A signal was skipped since the loop last slept: someone floods the bus.
  var flooded = false
  /// How long the loop pauses while flooded before it reads the bus again, so the signals
  /// are read in batches rather than one wake-up each.
  static let floodPauseMilliseconds: Int32 = 20

  init(connection: BusConnection, debug: @escaping (String) -> Void) {
    self.connection = connection
    self.debug = debug
  }

  /// The slots still held go before the connection (each holds a reference to the bus). The
  /// players' thread has ended by then (``PlayerWatcher/stop()`` joins it).
  deinit {
    for slot in matches.values.joined() { sd_bus_slot_unref(slot) }
  }

  /// Listens to the signals of connection `owner` (a player's): its `PropertiesChanged` and
  /// `Seeked`, unless it is muted for a flood. The rules' handler gets `context` (the session).
  func follow(_ owner: String, context: UnsafeMutableRawPointer) {
    connection.assertConfined()
    guard matches[owner] == nil, muted[owner] == nil else { return }
    let path = PlayerSession.playerPath
    let interface = PlayerSession.playerInterface
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
  private func unfollow(_ owner: String) {
    for slot in matches.removeValue(forKey: owner) ?? [] { connection.removeMatch(slot) }
  }

  /// Connection `owner` owns no player name any more: forgotten.
  func forget(_ owner: String) {
    connection.assertConfined()
    unfollow(owner)
    budgets[owner] = nil
    muted[owner] = nil
  }

  /// Follows the connections muted for a flood again once their time is up; returns them
  /// (their players are to be read afresh) and when the next one is due.
  func followMutedAgain(now: Double, context: UnsafeMutableRawPointer) -> (
    owners: [String], next: Double?
  ) {
    connection.assertConfined()
    guard !muted.isEmpty else { return ([], nil) }
    var next: Double?
    var owners: [String] = []
    for (owner, due) in muted {
      if due <= now {
        muted[owner] = nil
        budgets[owner] = nil
        follow(owner, context: context)
        owners.append(owner)
      } else {
        next = min(next ?? due, due)
      }
    }
    return (owners, next)
  }

  /// Whether a signal from `sender` is read: its budget admits it. A signal over the budget
  /// mutes the connection (its players are read afresh once it is followed again).
  func admits(_ sender: String, now: Double) -> Bool {
    connection.assertConfined()
    var budget = budgets[sender] ?? SignalBudget(now: now)
    let admitted = budget.admit(at: now)
    budgets[sender] = budget
    guard !admitted else { return true }
    flooded = true
    unfollow(sender)
    if muted[sender] == nil {
      muted[sender] = now + Self.floodMuteSeconds
      debug("MPRIS: \(sender) sends too many signals; not listened to for a second")
    }
    return false
  }
}

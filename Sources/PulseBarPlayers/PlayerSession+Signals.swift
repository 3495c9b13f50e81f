internal import CSystemd
import PulseBarCore

/// A player's signals come through match rules of its own connection; a connection that
/// overruns its ``SignalBudget`` loses them for ``PlayerSession/floodMuteSeconds``.
extension PlayerSession {
  /// Listens to the signals of connection `owner` (a player's): its `PropertiesChanged` and
  /// `Seeked`, unless it is muted for a flood.
  func follow(_ owner: String) {
    guard matches[owner] == nil, muted[owner] == nil else { return }
    let context = Unmanaged.passUnretained(self).toOpaque()
    let rules = [
      "type='signal',sender='\(owner)',path='\(Self.playerPath)',"
        + "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
        + "arg0='\(Self.playerInterface)'",
      "type='signal',sender='\(owner)',path='\(Self.playerPath)',"
        + "interface='\(Self.playerInterface)',member='Seeked'",
    ]
    var slots: [OpaquePointer] = []
    for rule in rules {
      if let slot = try? connection.addMatch(rule, context: context, handler: Self.signalHandler) {
        slots.append(slot)
      }
    }
    matches[owner] = slots
  }

  /// Stops listening to connection `owner`'s signals.
  func unfollow(_ owner: String) {
    for slot in matches.removeValue(forKey: owner) ?? [] { connection.removeMatch(slot) }
  }

  /// Connection `owner` owns no player name any more: forgotten.
  func forget(_ owner: String) {
    guard registry.names(ownedBy: owner).isEmpty else { return }
    unfollow(owner)
    budgets[owner] = nil
    muted[owner] = nil
  }

  /// Follows the connections muted for a flood again once their time is up, and reads their
  /// players afresh; returns when the next one is due.
  func followMutedAgain(now: Double) -> Double? {
    guard !muted.isEmpty else { return nil }
    var next: Double?
    for (owner, due) in muted {
      if due <= now {
        muted[owner] = nil
        budgets[owner] = nil
        follow(owner)
        for name in registry.names(ownedBy: owner) { requestProperties(of: name) }
      } else {
        next = min(next ?? due, due)
      }
    }
    return next
  }

  /// The names a signal from its sender speaks for, when the sender's budget admits it; a
  /// signal over the budget marks them to be read with a `GetAll` once it allows.
  func admittedNames(of signal: BusMessage, now: Double) -> [String] {
    guard let sender = signal.sender else { return [] }
    let names = registry.names(ownedBy: sender)
    guard !names.isEmpty else { return [] }
    var budget = budgets[sender] ?? SignalBudget(now: now)
    let admitted = budget.admit(at: now)
    budgets[sender] = budget
    guard admitted else {
      // A flood: the bus stops sending this connection's signals for a while; its players are
      // read afresh after (``followMutedAgain(now:)``).
      flooded = true
      unfollow(sender)
      if muted[sender] == nil {
        muted[sender] = now + Self.floodMuteSeconds
        debug("MPRIS: \(sender) sends too many signals; not listened to for a second")
      }
      return []
    }
    return names
  }
}

/// Whose signals ``PlayerCore`` hears: the player connections followed, each one's
/// ``SignalBudget``, and who is muted for a flood. A connection that overruns its budget loses
/// its match rules for ``PlayerCore/floodMuteSeconds`` (the bus itself stops sending its
/// signals, so a flood costs next to nothing) and is then followed again, its players read
/// afresh. The match rules themselves are the adapter's (``PlayerSignals``): here they are
/// actions.
struct PlayerSignalFollowing: Sendable {
  private var budgets: [String: SignalBudget] = [:]
  private var followed: Set<String> = []
  /// Muted connections and when they are followed again.
  private var muted: [String: Double] = [:]

  /// When the next muted connection is followed again, or `nil`.
  var nextDue: Double? { muted.values.min() }

  /// Whether a signal from `sender` at `now` is read: its budget admits it. A signal over the
  /// budget pauses the loop and mutes the connection (said once).
  mutating func admits(_ sender: String, at now: Double, actions: inout [BusAction]) -> Bool {
    var budget = budgets[sender] ?? SignalBudget(now: now)
    let admitted = budget.admit(at: now)
    budgets[sender] = budget
    guard !admitted else { return true }
    actions.append(.pauseReading)
    if followed.remove(sender) != nil { actions.append(.unsubscribe(owner: sender)) }
    if muted[sender] == nil {
      muted[sender] = now + PlayerCore.floodMuteSeconds
      actions.append(.log("MPRIS: \(sender) sends too many signals; not listened to for a second"))
    }
    return false
  }

  /// Listens to connection `owner`'s signals, unless it is followed already or muted.
  mutating func follow(_ owner: String, actions: inout [BusAction]) {
    guard muted[owner] == nil, followed.insert(owner).inserted else { return }
    actions.append(.subscribe(owner: owner))
  }

  /// Connection `owner` owns no player name any more: forgotten.
  mutating func forget(_ owner: String, actions: inout [BusAction]) {
    if followed.remove(owner) != nil { actions.append(.unsubscribe(owner: owner)) }
    budgets[owner] = nil
    muted[owner] = nil
  }

  /// Follows the connections whose mute is over by `now` again, in name order; returns them
  /// (their players are to be read afresh).
  mutating func followAgain(at now: Double, actions: inout [BusAction]) -> [String] {
    let due = muted.filter { $0.value <= now }.keys.sorted()
    for owner in due {
      muted[owner] = nil
      budgets[owner] = nil
      follow(owner, actions: &actions)
    }
    return due
  }
}

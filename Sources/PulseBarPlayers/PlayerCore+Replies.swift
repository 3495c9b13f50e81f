extension PlayerCore {
  /// A reply to call `id`, which asked `asked`, still counting (its number was in flight).
  mutating func replied(_ id: UInt64, _ asked: BusCall, _ reply: BusReply) {
    switch asked {
    case .listNames:
      guard case .names(let names) = reply else { return }
      for name in names ?? [] where PlayerRegistry.isPlayerName(name) {
        registry.appeared(name, owner: nil)
        requestProperties(of: name)
      }
    case .properties(let busName): propertiesArrived(busName, reply)
    case .position(let busName):
      positionCalls[busName] = nil
      guard case .position(let sender?, let position?) = reply,
        registry.isOwner(busName, sender)
      else {
        if settling[busName]?.failed(at: now) == true { settling[busName] = nil }
        return
      }
      registry.update(busName, position: position, at: now)
      changed = true
      if let read = registry.players[busName]?.position,
        settling[busName]?.answered(read, at: now) == true
      {
        settling[busName] = nil
      }
    case .processID(let owner):
      // Only the bus itself says who a connection is, and only a process id in the kernel's
      // range counts (NaN fails the comparisons).
      guard case .processID("org.freedesktop.DBus"?, let pid?) = reply, pid > 1, pid < 4_194_304
      else { return }
      registry.update(owner: owner, processID: Int32(pid))
      changed = true
    case .desktopEntry(let busName):
      guard case .desktopEntry(let sender?, let entry?) = reply, registry.isOwner(busName, sender)
      else { return }
      registry.update(busName, desktopEntry: entry)
      changed = true
    }
  }

  /// A `GetAll` answered, or failed: a player that does not answer is still a player (stopped,
  /// no track), asked again later; a name released meanwhile has no player, and its late
  /// reply changes nothing.
  private mutating func propertiesArrived(_ busName: String, _ reply: BusReply) {
    let askAgain = propertiesCalls.removeValue(forKey: busName)?.askAgain ?? false
    guard registry.players[busName] != nil else { return }
    switch reply {
    case .failed(let error):
      if silentRetries.noAnswer(from: busName, at: now) {
        actions.append(
          .log("MPRIS: \(busName) did not answer (\(error)); shown as stopped, asked again later"))
      }
      registry.loaded(busName)
      changed = true
    case .properties(let sender?, let properties):
      let ownerWasKnown = registry.players[busName]?.owner != nil
      guard registry.isOwner(busName, sender) else { return }
      silentRetries.forget(busName)
      registry.loaded(busName)
      apply(properties, to: [busName])
      if !ownerWasKnown {
        // Listed at start-up: its signals are followed from now on, and what changed before
        // the match rules took hold is read once more.
        signals.follow(sender, actions: &actions)
        requestProperties(of: busName)
        requestIdentity(of: busName, owner: sender)
      }
    default: break
    }
    if askAgain { requestProperties(of: busName) }
  }
}

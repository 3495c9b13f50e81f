extension PlayerCore {
  /// The invalidated properties that are read again with a `GetAll` (their values did not
  /// come with the signal).
  static let rereadWhenInvalidated: Set<String> = ["PlaybackStatus", "Metadata", "Rate", "Volume"]

  /// `PropertiesChanged` from `sender`: its values applied to the names it owns, then the
  /// position read (a new track, status or rate moves it differently) or, for invalidated
  /// values, everything.
  mutating func propertiesChanged(
    sender: String?, interface: String?, properties: PlayerProperties, invalidated: [String]
  ) {
    let names = admittedNames(of: sender)
    guard !names.isEmpty, interface == Self.playerInterface else { return }
    let movesPosition = apply(properties, to: names)
    if invalidated.contains(where: Self.rereadWhenInvalidated.contains) {
      for name in names { requestProperties(of: name) }
    } else if movesPosition {
      for name in names { requestPosition(of: name, superseding: false) }
    }
  }

  /// The names a signal from `sender` speaks for, when its budget admits it.
  mutating func admittedNames(of sender: String?) -> [String] {
    guard let sender else { return [] }
    let names = registry.names(ownedBy: sender)
    guard !names.isEmpty, signals.admits(sender, at: now, actions: &actions) else { return [] }
    return names
  }
}

/// Which MPRIS players count and which one wins: `players.ignore` and `players.prefer`.
///
/// Pure, for the players side's registry to apply (`PlayerRegistry.active`) and for
/// `pulsebar ctl`. Names are bus-name suffixes after `org.mpris.MediaPlayer2.`, matched as
/// prefixes, so `firefox` covers `firefox.instance_1_84` and `chromium` every Chromium
/// instance. Among players that play, the one named earliest in `prefer` wins; players not
/// named rank after every named one, and ties (both unnamed, or neither playing) fall back to
/// the registry's own order (the most recent activity).
package struct PlayerPreference: Sendable, Equatable {
  /// Players never shown or controlled.
  package var ignore: [String]
  /// Players to pick first when several play, best first.
  package var prefer: [String]

  package init(ignore: [String] = [], prefer: [String] = []) {
    self.ignore = ignore
    self.prefer = prefer
  }

  /// What the registry knows of a player for the choice.
  package struct Candidate: Sendable, Equatable {
    /// The full bus name, `org.mpris.MediaPlayer2.…`.
    package var busName: String
    package var isPlaying: Bool
    /// A registry-wide counter bumped when it appears or starts playing (higher is more recent).
    package var activity: UInt64

    package init(busName: String, isPlaying: Bool, activity: UInt64) {
      self.busName = busName
      self.isPlaying = isPlaying
      self.activity = activity
    }
  }

  /// The prefix every MPRIS bus name starts with.
  package static let busNamePrefix = "org.mpris.MediaPlayer2."

  /// The part after `org.mpris.MediaPlayer2.` (the whole name when it lacks the prefix).
  private static func suffix(_ busName: String) -> Substring {
    busName.hasPrefix(busNamePrefix) ? busName.dropFirst(busNamePrefix.count) : busName[...]
  }

  /// True when `players.ignore` names the player (by bus name or its suffix).
  package func ignores(_ busName: String) -> Bool {
    let name = Self.suffix(busName)
    return ignore.contains { name.hasPrefix($0) }
  }

  /// The player's place in `players.prefer` (0 is best); `prefer.count` when not named.
  package func rank(_ busName: String) -> Int {
    let name = Self.suffix(busName)
    return prefer.firstIndex { name.hasPrefix($0) } ?? prefer.count
  }

  /// True when `left` should lose to `right` (for `max(by:)`): playing beats not playing, then
  /// among players that play the better `prefer` rank, then the more recent activity.
  package func ranksBelow(_ left: Candidate, _ right: Candidate) -> Bool {
    if left.isPlaying != right.isPlaying { return right.isPlaying }
    if left.isPlaying {
      let leftRank = rank(left.busName)
      let rightRank = rank(right.busName)
      if leftRank != rightRank { return leftRank > rightRank }
    }
    return left.activity < right.activity
  }

  /// The active player among `candidates`: not ignored, then the best by ``ranksBelow(_:_:)``.
  package func active(among candidates: [Candidate]) -> Candidate? {
    candidates.filter { !ignores($0.busName) }.max(by: ranksBelow)
  }
}

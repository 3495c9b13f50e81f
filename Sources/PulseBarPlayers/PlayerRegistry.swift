import PulseBarCore

/// Every MPRIS player on the bus and which one is active: pure bookkeeping, no I/O, so the
/// choice is tested with no bus at all.
///
/// The active player is the one playing most recently, as playerctld picks it: a player that
/// appears or starts playing moves to the front. One refinement over playerctld: a player that
/// is playing now wins over one that played more recently but is paused, because pulsebar's
/// picture follows the audio, and the audio is the player that still plays.
///
/// A player is shown only while it owns its name: it is added when the bus says a connection
/// took the name (or lists it at start-up), removed when the bus says it was released, and a
/// new owner is a new player (nothing of the old one's track carries over). What arrives
/// from a connection counts only for the names it owns now (``isOwner(_:_:)``); a late reply
/// for a name that is gone finds no player and changes nothing. Signals are routed by their
/// sender through an index, so their cost does not grow with the number of players.
package struct PlayerRegistry: Sendable {
  /// What one player says, by its bus name.
  package struct Player: Sendable, Equatable {
    /// `org.mpris.MediaPlayer2.…`.
    package var busName: String
    /// The unique connection name (`:1.42`) that owns it; signals come from this one. `nil`
    /// for a name listed at start-up until its first reply names the owner.
    package var owner: String?
    package var status: PlayerStatus = .stopped
    /// What it plays: its `Metadata`, replaced whole at each change (its URL and text say where
    /// a synced lyric may be, its art URL the art colours: ``LyricFinder``, ``ArtFinder``).
    package var track = Metadata()
    /// Where playback was (``PlaybackPosition``: `Position` as last read, its `Rate`, when),
    /// or `nil` while the player has not said.
    package var position: PlaybackPosition?
    /// Bumped from a registry-wide counter when the player appears or starts playing.
    package var activity: UInt64 = 0
    /// Its properties have arrived (or it failed to answer): until then it is not shown, so
    /// no frame names a player without its track.
    package var loaded = false
    /// Its `DesktopEntry` (the root interface's), when it said.
    package var desktopEntry: String?
    /// `Volume`, bounded (``PlayerValueBounds/volume(_:)``), when it said.
    package var volume: Double?
  }

  /// The prefix every MPRIS bus name starts with.
  package static let busNamePrefix = PlayerPreference.busNamePrefix

  package private(set) var players: [String: Player] = [:]
  /// `players.ignore` and `players.prefer`: which players count, and which wins among those
  /// that play.
  package var preference = PlayerPreference()
  /// The names each connection owns (most own one).
  private var namesByOwner: [String: [String]] = [:]
  /// The process behind each connection, as the bus said (`GetConnectionUnixProcessID`).
  private var processIDs: [String: Int32] = [:]
  private var clock: UInt64 = 0

  package init() {}

  /// True for `org.mpris.MediaPlayer2.<something>`.
  package static func isPlayerName(_ name: String) -> Bool {
    name.hasPrefix(busNamePrefix) && name.count > busNamePrefix.count
  }

  /// A connection took a player's name (`owner` nil: listed at start-up, owner not yet
  /// known). A different owner than before is a new player: the old one's track is dropped.
  package mutating func appeared(_ busName: String, owner: String?) {
    clock += 1
    if let existing = players[busName], existing.owner == owner || owner == nil {
      players[busName]?.activity = clock
      return
    }
    vanished(busName)
    players[busName] = Player(busName: busName, owner: owner, activity: clock)
    if let owner { namesByOwner[owner, default: []].append(busName) }
  }

  /// The name was released: the player is gone.
  package mutating func vanished(_ busName: String) {
    guard let player = players.removeValue(forKey: busName), let owner = player.owner else {
      return
    }
    namesByOwner[owner]?.removeAll { $0 == busName }
    if namesByOwner[owner]?.isEmpty == true {
      namesByOwner[owner] = nil
      processIDs[owner] = nil
    }
  }

  /// The bus said which process connection `owner` is; kept while it owns a player's name.
  package mutating func update(owner: String, processID: Int32) {
    guard namesByOwner[owner] != nil, processID > 0 else { return }
    processIDs[owner] = processID
  }

  /// Whether the process behind connection `owner` is known.
  package func knowsProcess(of owner: String) -> Bool { processIDs[owner] != nil }

  /// The player's `DesktopEntry` (an empty one counts as none).
  package mutating func update(_ busName: String, desktopEntry: String) {
    players[busName]?.desktopEntry = desktopEntry.isEmpty ? nil : desktopEntry
  }

  /// Whether a message from connection `sender` may speak for `busName`: the player is there
  /// and `sender` owns it. A name listed at start-up learns its owner from its first reply
  /// here.
  package mutating func isOwner(_ busName: String, _ sender: String) -> Bool {
    guard let player = players[busName] else { return false }
    guard let owner = player.owner else {
      players[busName]?.owner = sender
      namesByOwner[sender, default: []].append(busName)
      return true
    }
    return owner == sender
  }

  /// The bus names owned by connection `owner` (what a signal from it is about).
  package func names(ownedBy owner: String) -> [String] {
    namesByOwner[owner] ?? []
  }

  /// The player's properties arrived (whatever they said): it may now be the active one.
  package mutating func loaded(_ busName: String) {
    players[busName]?.loaded = true
  }

  /// `Position` was read, or `Seeked` said where playback jumped, at `time` (monotonic
  /// seconds); a position that is negative is left out.
  package mutating func update(_ busName: String, position microseconds: Int64, at time: Double) {
    guard var player = players[busName], microseconds >= 0 else { return }
    if player.position == nil {
      player.position = PlaybackPosition(
        microseconds: microseconds, at: time, rate: 1, status: player.status,
        length: player.track.length)
    } else {
      player.position!.seeked(to: microseconds, at: time)
    }
    players[busName] = player
  }

  /// `Rate` changed at `time`: the position goes on from where it is, at the new rate.
  package mutating func update(_ busName: String, rate: Double, at time: Double) {
    players[busName]?.position?.rateChanged(to: rate, at: time)
  }

  /// `Volume` changed (already bounded).
  package mutating func update(_ busName: String, volume: Double) {
    players[busName]?.volume = volume
  }

  /// `PlaybackStatus` changed (at `time`: the position stops or starts moving there).
  package mutating func update(_ busName: String, status: PlayerStatus, at time: Double = 0) {
    players[busName]?.position?.statusChanged(to: status, at: time)
    guard var player = players[busName] else { return }
    if status == .playing && player.status != .playing {
      clock += 1
      player.activity = clock
    }
    player.status = status
    players[busName] = player
  }

  /// `Metadata` changed (the whole of it: missing keys are gone).
  package mutating func update(_ busName: String, metadata: Metadata) {
    guard var player = players[busName] else { return }
    player.track = metadata
    player.position?.length = metadata.length
    players[busName] = player
  }

  /// The active player: playing ones first, then the most recent activity.
  package var active: Player? {
    players.values.filter { $0.loaded && !preference.ignores($0.busName) }.max {
      preference.ranksBelow($0.candidate, $1.candidate)
    }
  }

  /// What the engine is handed: the active player and its track, or `nil`.
  package var nowPlaying: NowPlaying? {
    guard let player = active else { return nil }
    return NowPlaying(
      player: String(player.busName.dropFirst(Self.busNamePrefix.count)), status: player.status,
      title: player.track.title, artist: player.track.artist, album: player.track.album,
      length: player.track.length,
      position: player.position?.microseconds, rate: player.position?.rate ?? 1,
      positionTime: player.position?.sampledAt ?? 0,
      processID: player.owner.flatMap { processIDs[$0] }, desktopEntry: player.desktopEntry,
      volume: player.volume)
  }
}

extension PlayerRegistry.Player {
  /// What its lyric depends on (``LyricFinder``).
  var lyricTrack: LyricFinder.Track {
    .init(url: track.url, artist: track.artist, title: track.title, text: track.text)
  }

  /// What ``PlayerPreference`` weighs of it.
  var candidate: PlayerPreference.Candidate {
    .init(busName: busName, isPlaying: status == .playing, activity: activity)
  }
}

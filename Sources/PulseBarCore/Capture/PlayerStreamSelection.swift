/// Which playback streams belong to the active player, and so what the bars record: pure, with
/// the process tree injected, so every rule is tested without a server.
///
/// A stream belongs to the player, in this order:
/// 1. its `application.process.id` is the player's process or a descendant of it (Chromium's
///    audio service, Firefox's content processes, a wrapper script that forks the player);
/// 2. only when no stream matches that way: its `application.process.binary` or
///    `application.name` equals, ignoring case, the application part of the bus name
///    (`org.mpris.MediaPlayer2.spotify.instance123` gives `spotify`) or the player's
///    `DesktopEntry`.
///
/// The second rule is a fallback because it cannot tell two instances of one program apart:
/// with two mpv processes playing, the process rule keeps the active one's tone alone. A
/// Flatpak sandbox has its own PID namespace, so its streams name PIDs the host does not know;
/// they match by name when the app's streams carry it.
///
/// The rules run over all the server's streams, playing or not (mpv keeps its corked stream
/// while paused, so the name fallback does not pick another program's); then only playing
/// streams are recorded: the player's paused tab adds nothing. While the player is not
/// playing, has no playing stream, or is not there, the whole output is recorded.
package struct PlayerStreamSelection: Sendable, Equatable {
  /// How far up the parent chain a stream's process is followed (a sandbox or a service
  /// manager sits a few levels up; a loop in a corrupt table ends here).
  package static let maximumAncestry = 32

  package var scope: CaptureScope

  package init(scope: CaptureScope) { self.scope = scope }

  /// What to record now. `parentOf` gives a process's parent (`/proc/PID/stat`), or `nil` when
  /// the process is gone or unreadable.
  package func target(
    player: PlayerAudioIdentity?, streams: [PlaybackStream], parentOf: (Int32) -> Int32?
  ) -> CaptureTarget {
    guard scope == .player else { return .output(.scopeIsOutput) }
    guard let player else { return .output(.noPlayer) }
    guard player.playing else { return .output(.notPlaying(player.name)) }
    let owned = Self.streams(of: player, among: streams, parentOf: parentOf)
    let playing = streams.filter { $0.running && owned.contains($0.id) }.map(\.id)
    guard !playing.isEmpty else { return .output(.noStream(player.name)) }
    return .player(name: player.name, streams: playing.sorted())
  }

  /// Whether the output's sound is known to be someone else's: the scope is `player`, the
  /// active player does not play, and a stream that is not the player's plays among `streams`
  /// (those of the recorded sink). Then the player's `Paused` does not hold the state at
  /// `paused` (``PlaybackStateMachine``): the beeps of a chat play on at once, with no
  /// `paused` flash when the player pauses.
  package func othersPlay(
    player: PlayerAudioIdentity?, streams: [PlaybackStream], parentOf: (Int32) -> Int32?
  ) -> Bool {
    guard scope == .player, let player, !player.playing else { return false }
    let owned = Self.streams(of: player, among: streams, parentOf: parentOf)
    return streams.contains { $0.running && !owned.contains($0.id) }
  }

  /// The ids of `streams` (playing or not) that belong to `player`, by the rules above.
  static func streams(
    of player: PlayerAudioIdentity, among streams: [PlaybackStream],
    parentOf: (Int32) -> Int32?
  ) -> Set<UInt32> {
    if let owner = player.processID, owner > 1 {
      let byProcess = streams.filter { stream in
        stream.processID.map { descends($0, from: owner, parentOf: parentOf) } ?? false
      }
      if !byProcess.isEmpty { return Set(byProcess.map(\.id)) }
    }
    return Set(streams.filter { namesMatch($0, player) }.map(\.id))
  }

  /// `process` is `ancestor` or one of its descendants.
  package static func descends(
    _ process: Int32, from ancestor: Int32, parentOf: (Int32) -> Int32?
  ) -> Bool {
    var current = process
    for _ in 0..<maximumAncestry {
      if current == ancestor { return true }
      guard current > 1, let parent = parentOf(current), parent != current else { return false }
      current = parent
    }
    return false
  }

  /// The stream's binary or application name is the player's application name or desktop
  /// entry, ignoring case.
  static func namesMatch(_ stream: PlaybackStream, _ player: PlayerAudioIdentity) -> Bool {
    let wanted = [String(player.applicationName), player.desktopEntry].compactMap {
      $0?.lowercased()
    }.filter { !$0.isEmpty }
    return [stream.binary, stream.applicationName].contains { name in
      guard let name = name?.lowercased() else { return false }
      return wanted.contains(name)
    }
  }
}

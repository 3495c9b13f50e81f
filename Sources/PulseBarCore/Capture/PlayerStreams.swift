/// What the bars record from the audio server: the active player's own streams while it plays
/// (`player`, the default), or always the whole output, the default sink's monitor (`output`).
///
/// `--input pulse:NAME`, files, fifos and stdin ignore the scope: they name what to record.
package enum CaptureScope: String, Sendable, CaseIterable {
  case player
  case output
}

/// The active MPRIS player as the capture needs it: who it is and whether it plays.
package struct PlayerAudioIdentity: Sendable, Equatable {
  /// The bus name after `org.mpris.MediaPlayer2.` (`mpv`, `spotify.instance123`).
  package var name: String
  /// The process that owns the player's bus name (`GetConnectionUnixProcessID`), when the bus
  /// said.
  package var processID: Int32?
  /// The player's `DesktopEntry` (`firefox`), when it says.
  package var desktopEntry: String?
  /// MPRIS says `Playing`.
  package var playing: Bool

  package init(name: String, processID: Int32?, desktopEntry: String? = nil, playing: Bool) {
    self.name = name
    self.processID = processID
    self.desktopEntry = desktopEntry
    self.playing = playing
  }

  /// The application part of the bus name: `spotify.instance123` gives `spotify`.
  package var applicationName: Substring {
    name.prefix { $0 != "." }
  }
}

/// One playback stream as the audio server describes it: a PulseAudio sink input or a PipeWire
/// stream node, with the properties that tie it to an application.
package struct PlaybackStream: Sendable, Equatable {
  /// The sink-input index or the node's id.
  package var id: UInt32
  /// `application.process.id`.
  package var processID: Int32?
  /// `application.process.binary`.
  package var binary: String?
  /// `application.name`.
  package var applicationName: String?
  /// It plays: a sink input that is not corked, a node that runs.
  package var running: Bool

  package init(
    id: UInt32, processID: Int32? = nil, binary: String? = nil, applicationName: String? = nil,
    running: Bool
  ) {
    self.id = id
    self.processID = processID
    self.binary = binary
    self.applicationName = applicationName
    self.running = running
  }
}

/// What to record, and why: the answer of ``PlayerStreamSelection``.
package enum CaptureTarget: Sendable, Equatable {
  /// The whole output (the default sink's monitor), for `reason`.
  case output(OutputReason)
  /// These streams of player `name`, mixed (ids sorted).
  case player(name: String, streams: [UInt32])

  /// Why the whole output is recorded.
  package enum OutputReason: Sendable, Equatable {
    /// `input.scope = output`.
    case scopeIsOutput
    /// No MPRIS player is there (or none is followed).
    case noPlayer
    /// The active player is paused or stopped.
    case notPlaying(String)
    /// The active player plays, but none of its streams plays on the server.
    case noStream(String)
  }

  /// The player's streams, or none for the output.
  package var streams: [UInt32] {
    if case .player(_, let streams) = self { return streams }
    return []
  }

  /// What json's `source` says: `mpv (sink input 42)`; the monitor recorded for the whole
  /// output (`output`) when no player is there to explain; and why, when a player is there
  /// but not recorded: `pb_sink_a.monitor (output: mpv does not play)`. `streamKind` names the
  /// server's streams (`sink input`, `node`).
  package func describe(streamKind: String, output: String) -> String {
    switch self {
    case .player(let name, let streams):
      let ids = streams.map(String.init).joined(separator: ", ")
      return "\(name) (\(streamKind)\(streams.count == 1 ? "" : "s") \(ids))"
    case .output(.scopeIsOutput), .output(.noPlayer): return output
    case .output: return "\(output) (\(reason))"
    }
  }

  /// Why this is recorded, for `-v`: `output: no playing player`, `player mpv plays`.
  package var reason: String {
    switch self {
    case .player(let name, _): return "player \(name) plays"
    case .output(.scopeIsOutput): return "output: input.scope = output"
    case .output(.noPlayer): return "output: no playing player"
    case .output(.notPlaying(let name)): return "output: \(name) does not play"
    case .output(.noStream(let name)): return "output: no stream of \(name) plays"
    }
  }
}

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

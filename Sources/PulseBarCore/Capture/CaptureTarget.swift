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

import PulseBarCore
import PulseBarPlayers

/// What `pulsebar status` shows: the daemon's answer to a `status` line, for people or as one
/// json line. A value the socket handler fills from the frame it serves; rendering is pure.
///
/// It holds nothing a socket client cannot already learn (the socket is the user's alone,
/// mode 0600): the version, the uptime and the config's path; the input setting and the
/// `source`, `connected` and `state` every json frame carries; the active player (json's
/// `player`) and the names and statuses of the others, never their tracks; how many clients
/// read which subscriptions, never who they are; the frame rate and the daemon's CPU share.
/// Outside text (paths, player names) is escaped for json and stripped of controls for people.
package struct DaemonStatus: Equatable, Sendable {
  /// Clients that read one subscription.
  package struct Readers: Equatable, Sendable {
    package var subscription: Subscription
    package var clients: Int

    package init(subscription: Subscription, clients: Int) {
      self.subscription = subscription
      self.clients = clients
    }
  }

  package var version: String
  /// Seconds since the daemon started.
  package var uptime: Double
  package var configPath: String
  /// False: no file there, all defaults.
  package var configExists: Bool
  /// The last reload: how long ago (`nil`: none yet), and its error (`nil`: it worked).
  package var lastReloadAgo: Double? = nil
  package var lastReloadError: String? = nil
  /// The `input.source` setting (`auto`, `pulse:NAME`, `file:PATH`, …).
  package var input: String
  /// What is recorded now and why: json's `source`.
  package var source: String
  package var connected: Bool
  package var state: PlaybackState
  /// The active player (json's `player`), if any.
  package var player: String?
  /// Every player shown, the active one first.
  package var players: [PlayerSummary]
  /// Clients connected, subscribed or not yet.
  package var clients: Int
  package var readers: [Readers]
  /// The rate the daemon analyses at now (its fastest client's), and the frames that went out
  /// in the last second.
  package var analysisRate: Int
  package var framesPerSecond: Int
  /// The daemon's share of one CPU over ``cpuSeconds`` (10 s, longer after a pause).
  package var cpuPercent: Double
  package var cpuSeconds: Double

  /// One json object and a newline.
  package func json() -> String {
    var line = ByteLine(capacity: 512)
    line.append("{\"version\":")
    Self.quoted(version, &line)
    line.append(",\"uptime\":")
    line.append(uptime, decimals: 1)
    line.append(",\"config\":")
    Self.quoted(configPath, &line)
    line.append(",\"config_exists\":")
    line.append(configExists ? "true" : "false")
    appendLastReload(to: &line)
    line.append(",\"input\":")
    Self.quoted(input, &line)
    line.append(",\"source\":")
    Self.quoted(source, &line)
    line.append(",\"connected\":")
    line.append(connected ? "true" : "false")
    line.append(",\"state\":")
    Self.quoted(state.rawValue, &line)
    line.append(",\"player\":")
    if let player { Self.quoted(player, &line) } else { line.append("null") }
    line.append(",\"players\":[")
    for (index, summary) in players.enumerated() {
      if index > 0 { line.append(UInt8(ascii: ",")) }
      line.append("{\"name\":")
      Self.quoted(summary.name, &line)
      line.append(",\"status\":")
      Self.quoted(summary.status.rawValue.lowercased(), &line)
      line.append(UInt8(ascii: "}"))
    }
    line.append("],\"clients\":")
    line.append(integer: UInt64(clients))
    line.append(",\"subscriptions\":[")
    for (index, reader) in readers.enumerated() {
      if index > 0 { line.append(UInt8(ascii: ",")) }
      line.append("{\"format\":")
      Self.quoted(reader.subscription.format.rawValue, &line)
      line.append(",\"bars\":")
      line.append(integer: UInt64(reader.subscription.bars))
      line.append(",\"fps\":")
      line.append(integer: UInt64(reader.subscription.fps ?? analysisRate))
      line.append(",\"clients\":")
      line.append(integer: UInt64(reader.clients))
      line.append(UInt8(ascii: "}"))
    }
    line.append("],\"fps\":")
    line.append(integer: UInt64(analysisRate))
    line.append(",\"frames_last_second\":")
    line.append(integer: UInt64(framesPerSecond))
    line.append(",\"cpu_percent\":")
    line.append(cpuPercent, decimals: 2)
    line.append(",\"cpu_seconds\":")
    line.append(cpuSeconds, decimals: 1)
    line.append("}\n")
    return String(decoding: line.bytes, as: UTF8.self)
  }

  /// `,"last_reload":{"ago":…,"ok":…[,"error":…]}`, or `null` before the first reload.
  private func appendLastReload(to line: inout ByteLine) {
    line.append(",\"last_reload\":")
    if let ago = lastReloadAgo {
      line.append("{\"ago\":")
      line.append(ago, decimals: 1)
      line.append(",\"ok\":")
      line.append(lastReloadError == nil ? "true" : "false")
      if let error = lastReloadError {
        line.append(",\"error\":")
        Self.quoted(error, &line)
      }
      line.append(UInt8(ascii: "}"))
    } else {
      line.append("null")
    }
  }

  private static func quoted(_ text: String, _ line: inout ByteLine) {
    line.append(UInt8(ascii: "\""))
    UntrustedText.append(text, as: .json, to: &line)
    line.append(UInt8(ascii: "\""))
  }
}

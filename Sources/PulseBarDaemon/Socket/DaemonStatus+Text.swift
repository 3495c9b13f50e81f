import PulseBarCore
import PulseBarPlayers

extension DaemonStatus {
  /// The status for people: one fact a line, `label: value`. Outside text (paths, player
  /// names) has its control characters replaced (``UntrustedText/sanitized(_:)``), so it
  /// cannot move the cursor or forge a line of its own.
  package func text() -> String {
    let plain = UntrustedText.sanitized
    var lines = ["pulsebar \(plain(version)), up \(Self.duration(uptime))"]
    lines.append(
      "config:   \(plain(configPath))" + (configExists ? "" : " (no such file: all defaults)"))
    if let ago = lastReloadAgo {
      let outcome = lastReloadError.map { "failed, the old config stays: \(plain($0))" } ?? "ok"
      lines.append("reload:   \(Self.duration(ago)) ago, \(outcome)")
    }
    let recorded =
      connected ? "recording \(plain(source))" : "no audio server yet (waiting for it)"
    lines.append("input:    \(plain(input)); \(recorded)")
    lines.append("state:    \(state.rawValue)")
    lines.append("player:   \(playersText())")
    lines.append("clients:  \(clientsText())")
    lines.append(
      "frames:   \(framesPerSecond) in the last second (analysing at \(analysisRate) a second)")
    lines.append(
      "cpu:      \(Self.decimal(cpuPercent, 1)) % over the last \(Self.duration(cpuSeconds))")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The active player first (`none` without one), then the others.
  private func playersText() -> String {
    let plain = UntrustedText.sanitized
    func named(_ summary: PlayerSummary) -> String {
      "\(plain(summary.name)) (\(summary.status.rawValue.lowercased()))"
    }
    let others = players.filter { $0.name != player }.map(named)
    var text = "none"
    if let player { text = players.first { $0.name == player }.map(named) ?? plain(player) }
    return others.isEmpty ? text : text + "; others: " + others.joined(separator: ", ")
  }

  private func clientsText() -> String {
    guard clients > 0 else { return "none" }
    let kinds = readers.map { reader in
      let subscription = reader.subscription
      let rate = subscription.fps ?? analysisRate
      return "\(reader.clients) × \(subscription.format.rawValue) \(subscription.bars) bars at "
        + "\(rate) fps"
    }
    let waiting = clients - readers.reduce(0) { $0 + $1.clients }
    let parts = kinds + (waiting > 0 ? ["\(waiting) not subscribed yet"] : [])
    return "\(clients): " + parts.joined(separator: ", ")
  }

  /// `42 s`, `3 min 12 s`, `2 h 5 min`, `3 d 4 h`.
  static func duration(_ seconds: Double) -> String {
    let whole = Int(max(0, min(seconds, 1e12)).rounded())
    switch whole {
    case ..<60: return "\(whole) s"
    case ..<3600: return "\(whole / 60) min \(whole % 60) s"
    case ..<86_400: return "\(whole / 3600) h \(whole % 3600 / 60) min"
    default: return "\(whole / 86_400) d \(whole % 86_400 / 3600) h"
    }
  }

  /// `value` with `decimals` decimals.
  static func decimal(_ value: Double, _ decimals: Int) -> String {
    var line = ByteLine(capacity: 24)
    line.append(max(0, min(value, 1e9)), decimals: decimals)
    return String(decoding: line.bytes, as: UTF8.self)
  }
}

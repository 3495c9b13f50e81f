import PulseBarCore
import PulseBarSystem

/// The players shown, as the players' thread last published them; read by the socket's status
/// answer on the engine's thread.
package final class PlayerRoster: Sendable {
  private let players = Lock<[PlayerSummary]>([])

  package init() {}

  /// The players, the active one first.
  package var current: [PlayerSummary] { players.withLock { $0 } }

  package func update(_ list: [PlayerSummary]) {
    players.withLock { $0 = list }
  }
}

extension PlayerRegistry {
  /// The players shown (their properties arrived, not ignored), the active one first, then
  /// as ``PlayerPreference`` ranks them.
  package var summaries: [PlayerSummary] {
    players.values.filter { $0.loaded && !preference.ignores($0.busName) }
      .sorted { preference.ranksBelow($1.candidate, $0.candidate) }
      .map {
        PlayerSummary(
          name: String($0.busName.dropFirst(Self.busNamePrefix.count)), status: $0.status)
      }
  }
}

import PulseBarCore
import PulseBarSystem

/// One player as `pulsebar status` lists it: its name after `org.mpris.MediaPlayer2.` and
/// what it says it does. Never its track: a socket client learns the active player's from the
/// frames, and no other's.
package struct PlayerSummary: Sendable, Equatable {
  package var name: String
  package var status: PlayerStatus

  package init(name: String, status: PlayerStatus) {
    self.name = name
    self.status = status
  }
}

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

/// What the players' thread publishes after each batch of messages: the active player's
/// snapshot for the engine, and every shown player for the status.
struct PlayerPublication: Sendable {
  let feed: PlayerFeed
  let roster: PlayerRoster

  /// Publishes the registry's active player with `lyric`, its track's synced lyric.
  func publish(
    _ registry: PlayerRegistry, lyric: SyncedLyric? = nil, artPalette: ArtPalette? = nil
  ) {
    var nowPlaying = registry.nowPlaying
    nowPlaying?.lyric = lyric
    nowPlaying?.artPalette = artPalette
    feed.post(nowPlaying)
    roster.update(registry.summaries)
  }

  /// No players (the bus went away).
  func clear() {
    feed.post(nil)
    roster.update([])
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

import PulseBarCore
import PulseBarSystem

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

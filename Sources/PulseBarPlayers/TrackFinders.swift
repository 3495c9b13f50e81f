import PulseBarCore
import PulseBarSystem

/// What the players' thread looks up for the active track before it publishes it: its synced
/// lyric (``LyricFinder``) and its art colours (``ArtFinder``), each once per track.
struct TrackFinders {
  var lyrics: LyricFinder
  var art: ArtFinder

  /// Nothing to find: no lyrics directory, no art colours. Made afresh each time, so its
  /// mailboxes' eventfds close with the session that held it (a `static let` kept two open
  /// for the process's life).
  static var none: TrackFinders {
    TrackFinders(
      lyrics: LyricFinder(directory: nil, reloads: Mailbox(nil)),
      art: ArtFinder(
        settings: ArtSettings(enabled: false, background: RGBColor(red: 0, green: 0, blue: 0)),
        reloads: Mailbox(
          ArtSettings(enabled: false, background: RGBColor(red: 0, green: 0, blue: 0)))
      ))
  }

  /// The reload mailboxes' descriptors, for the thread's poll.
  var descriptors: [FileDescriptor] { [lyrics.reloads.descriptor, art.reloads.descriptor] }

  /// Takes reloaded settings; true when any changed (the track is then published again).
  mutating func takeReloads() -> Bool {
    let lyricsChanged = lyrics.takeReload()
    return art.takeReload() || lyricsChanged
  }

  /// When either finder wants the track published again (a lyric text's or an art URL's turn,
  /// a read to retry), in seconds on the monotonic clock.
  var nextDue: Double? { [lyrics.nextDue, art.nextDue].compactMap { $0 }.min() }

  /// Publishes `registry` with the active track's lyric and art colours, at `now`.
  mutating func publish(
    _ registry: PlayerRegistry, to published: PlayerPublication, at now: Double,
    debug: (String) -> Void
  ) {
    let active = registry.active
    let lyric = lyrics.lyric(for: active?.lyricTrack, at: now, debug: debug)
    let palette = art.palette(for: active?.track.artURL, at: now, debug: debug)
    published.publish(registry, lyric: lyric, artPalette: palette)
  }
}

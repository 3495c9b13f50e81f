/// What an MPRIS player says about its playback (`PlaybackStatus`).
package enum PlayerStatus: String, Sendable, CaseIterable {
  case playing = "Playing"
  case paused = "Paused"
  case stopped = "Stopped"
}

/// The active MPRIS player and its track: one value the players side hands the engine.
///
/// A snapshot, replaced whole when anything in it changes (rarely: a track change, a pause),
/// so renderers escape its text once per change, never per frame.
package struct NowPlaying: Sendable, Equatable {
  /// The player's bus name after `org.mpris.MediaPlayer2.` (`mpv`, `vlc.instance4242`).
  package var player: String
  package var status: PlayerStatus
  /// `xesam:title`.
  package var title: String?
  /// `xesam:artist`, several artists joined with ", ".
  package var artist: String?
  /// `xesam:album`.
  package var album: String?
  /// `mpris:length` in seconds.
  package var length: Double?

  package init(
    player: String, status: PlayerStatus, title: String? = nil, artist: String? = nil,
    album: String? = nil, length: Double? = nil
  ) {
    self.player = player
    self.status = status
    self.title = title
    self.artist = artist
    self.album = album
    self.length = length
  }

}

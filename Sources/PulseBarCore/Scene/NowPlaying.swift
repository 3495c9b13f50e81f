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
  /// MPRIS `Position` in microseconds, as last read (a `Position` reply or `Seeked`), or `nil`
  /// when the player does not say.
  package var position: Int64?
  /// MPRIS `Rate` (1 when the player does not say).
  package var rate: Double
  /// When ``position`` was read, in monotonic seconds (the clock the engine passes as
  /// ``FrameInfo/clock``).
  package var positionTime: Double
  /// The process that owns the player's bus name, when the bus said
  /// (`GetConnectionUnixProcessID`): whose streams are the player's.
  package var processID: Int32?
  /// The player's `DesktopEntry`, when it says.
  package var desktopEntry: String?
  /// The track's synced lyric, when one was found (read on the players' thread).
  package var lyric: SyncedLyric?
  /// The track's art colours (`colors.from_art`), built on the players' thread.
  package var artPalette: ArtPalette?
  /// MPRIS `Volume` (1 is 100 %), within ``PlayerValueBounds/volume(_:)``, when it says.
  package var volume: Double?

  package init(
    player: String, status: PlayerStatus, title: String? = nil, artist: String? = nil,
    album: String? = nil, length: Double? = nil, position: Int64? = nil, rate: Double = 1,
    positionTime: Double = 0, processID: Int32? = nil, desktopEntry: String? = nil,
    lyric: SyncedLyric? = nil, volume: Double? = nil
  ) {
    self.lyric = lyric
    self.volume = volume
    self.processID = processID
    self.desktopEntry = desktopEntry
    self.player = player
    self.status = status
    self.title = title
    self.artist = artist
    self.album = album
    self.length = length
    self.position = position
    self.rate = rate
    self.positionTime = positionTime
  }

  /// Who the player is and whether it plays, as the capture needs it.
  package var audioIdentity: PlayerAudioIdentity {
    PlayerAudioIdentity(
      name: player, processID: processID, desktopEntry: desktopEntry, playing: status == .playing)
  }

  /// The position to show, extrapolated from ``position`` (see ``PlaybackPosition``).
  package var playbackPosition: PlaybackPosition? {
    position.map {
      PlaybackPosition(
        microseconds: $0, at: positionTime, rate: rate, status: status, length: length)
    }
  }

}

extension NowPlaying {
  /// When a line that shows the position (`showingPosition`) or the lyric (`showingLyric`)
  /// next changes after `clock` (monotonic seconds), or `nil`: the position at most once a
  /// second, the lyric's lines at most once a frame period; never while paused or stopped.
  package func nextChange(
    showingPosition: Bool, showingLyric: Bool, after clock: Double, framePeriod: Double
  ) -> Double? {
    guard let position = playbackPosition else { return nil }
    var due = showingPosition ? position.nextVisibleChange(after: clock) : nil
    if showingLyric, let lyric, let line = position.nextChange(of: lyric, after: clock) {
      let line = max(line, clock + framePeriod)
      due = min(due ?? line, line)
    }
    return due
  }
}

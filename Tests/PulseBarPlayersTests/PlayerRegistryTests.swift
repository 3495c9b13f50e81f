import PulseBarCore
import Testing

@testable import PulseBarPlayers

/// Which player is active, with no bus: the registry's bookkeeping alone.
@Suite struct PlayerRegistryTests {
  static let mpv = "org.mpris.MediaPlayer2.mpv"
  static let vlc = "org.mpris.MediaPlayer2.vlc"

  @Test func onlyMPRISNamesArePlayers() {
    #expect(PlayerRegistry.isPlayerName(Self.mpv))
    #expect(!PlayerRegistry.isPlayerName("org.mpris.MediaPlayer2."))
    #expect(!PlayerRegistry.isPlayerName("org.freedesktop.Notifications"))
  }

  @Test func theMostRecentlyPlayingPlayerIsActive() {
    var registry = PlayerRegistry()
    #expect(registry.nowPlaying == nil)
    registry.appeared(Self.mpv, owner: ":1.1")
    #expect(registry.nowPlaying == nil, "not shown before its properties arrive")
    registry.loaded(Self.mpv)
    registry.update(Self.mpv, status: .playing)
    registry.update(Self.mpv, metadata: Metadata(title: "A", artist: "X"))
    #expect(
      registry.nowPlaying == NowPlaying(player: "mpv", status: .playing, title: "A", artist: "X"))
    // A second player appears paused: the playing one stays active.
    registry.appeared(Self.vlc, owner: ":1.2")
    registry.loaded(Self.vlc)
    registry.update(Self.vlc, status: .paused)
    #expect(registry.active?.busName == Self.mpv)
    // It starts playing: it takes over.
    registry.update(Self.vlc, status: .playing)
    #expect(registry.active?.busName == Self.vlc)
    // It pauses while mpv still plays: the one still playing wins.
    registry.update(Self.vlc, status: .paused)
    #expect(registry.active?.busName == Self.mpv)
    // mpv pauses too: vlc played most recently.
    registry.update(Self.mpv, status: .paused)
    #expect(registry.active?.busName == Self.vlc)
    // vlc leaves: mpv is left.
    registry.vanished(Self.vlc)
    #expect(registry.active?.busName == Self.mpv)
    #expect(registry.names(ownedBy: ":1.1") == [Self.mpv])
    registry.vanished(Self.mpv)
    #expect(registry.nowPlaying == nil)
  }

  @Test func metadataIsReplacedWhole() {
    var registry = PlayerRegistry()
    registry.appeared(Self.mpv, owner: ":1.1")
    registry.loaded(Self.mpv)
    registry.update(Self.mpv, metadata: Metadata(title: "A", artist: "X", album: "L", length: 3))
    registry.update(Self.mpv, metadata: Metadata(title: "B"))
    #expect(registry.nowPlaying?.title == "B")
    #expect(registry.nowPlaying?.artist == nil && registry.nowPlaying?.album == nil)
  }
}

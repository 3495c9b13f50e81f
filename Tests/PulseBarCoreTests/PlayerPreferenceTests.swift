import Testing

@testable import PulseBarCore

/// `players.ignore` and `players.prefer`.
@Suite struct PlayerPreferenceTests {
  static func candidate(_ name: String, playing: Bool, activity: UInt64)
    -> PlayerPreference.Candidate
  {
    .init(busName: "org.mpris.MediaPlayer2." + name, isPlaying: playing, activity: activity)
  }

  @Test func ignoreMatchesBusNameSuffixesAsPrefixes() {
    let preference = PlayerPreference(ignore: ["firefox", "chromium"])
    #expect(preference.ignores("org.mpris.MediaPlayer2.firefox.instance_1_84"))
    #expect(preference.ignores("org.mpris.MediaPlayer2.chromium.instance4242"))
    #expect(preference.ignores("firefox"))
    #expect(!preference.ignores("org.mpris.MediaPlayer2.mpv"))
    #expect(!preference.ignores("org.mpris.MediaPlayer2.vlc.firefox"), "a prefix, not a substring")
  }

  @Test func preferOrdersPlayersThatPlay() {
    let preference = PlayerPreference(ignore: ["firefox"], prefer: ["spotify", "mpv"])
    let mpv = Self.candidate("mpv", playing: true, activity: 5)
    let spotify = Self.candidate("spotify", playing: true, activity: 1)
    let vlc = Self.candidate("vlc", playing: true, activity: 9)
    let firefox = Self.candidate("firefox.instance_1", playing: true, activity: 10)
    #expect(preference.active(among: [mpv, spotify, vlc, firefox]) == spotify)
    #expect(preference.active(among: [mpv, vlc]) == mpv, "named ranks before unnamed")
    #expect(preference.active(among: [vlc, firefox]) == vlc, "ignored never wins")
    #expect(preference.active(among: [firefox]) == nil)
    // A preferred player that does not play loses to any that plays.
    let pausedSpotify = Self.candidate("spotify", playing: false, activity: 20)
    #expect(preference.active(among: [pausedSpotify, vlc]) == vlc)
    // Nobody plays: the most recent activity, as without a preference.
    let pausedMpv = Self.candidate("mpv", playing: false, activity: 3)
    #expect(preference.active(among: [pausedSpotify, pausedMpv]) == pausedSpotify)
    #expect(PlayerPreference().active(among: [mpv, vlc]) == vlc, "no preference: most recent")
  }
}

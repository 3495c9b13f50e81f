import Testing

@testable import PulseBarCore

/// The active MPRIS player in the scene and the formats: its state overrides lingering audio,
/// json and the waybar tooltip carry its track, the text line its fitted title.
@Suite struct PlayerRenderTests {
  static let song = NowPlaying(
    player: "mpv", status: .playing, title: "Song & \"One\"", artist: "The Band",
    album: "First", length: 200)

  // MARK: - The tooltip template

  @Test(
    arguments: [
      ("Playing", "mpv", "Title", "Artist", "Playing · Artist — Title (mpv)"),
      ("Playing", "mpv", "Title", nil, "Playing · Title (mpv)"),
      ("Playing", "mpv", nil, "Artist", "Playing · Artist (mpv)"),
      ("Playing", "mpv", nil, nil, "Playing (mpv)"),
      ("Paused", nil, "Title", "Artist", "Paused · Artist — Title"),
      ("Stopped", nil, nil, nil, "Stopped"),
    ] as [(String, String?, String?, String?, String)])
  func defaultTooltipDropsMissingFieldsCleanly(
    state: String, player: String?, title: String?, artist: String?, expected: String
  ) throws {
    let template = try Template(parsing: Template.defaultTooltip)
    let text = template.text { field in
      switch field {
      case .state: state
      case .player: player
      case .title: title
      case .artist: artist
      default: nil
      }
    }
    #expect(text == expected)
  }

  @Test func tooltipConfigRejectsUnknownFields() throws {
    let setting = try #require(ConfigKeys.setting(section: "output", key: "tooltip"))
    var configuration = Configuration()
    #expect(throws: ValueError.self) { try setting.apply("{state} {song}", &configuration) }
    try setting.apply("{title} by {artist}", &configuration)
    #expect(configuration.tooltip == "{title} by {artist}")
  }

  // MARK: - Formats

  @Test func jsonCarriesThePlayerAndOmitsWhatIsMissing() throws {
    let line = try #require(RenderTests.line(.json, bars: [0.5], nowPlaying: Self.song))
    #expect(
      line.contains(
        #""source":"sink \"a\".monitor","player":"mpv","title":"Song & \"One\"","artist":"The Band","album":"First","length":200.000,"morph":"#
      ), "\(line)")
    var bare = Self.song
    bare.artist = nil
    bare.album = nil
    bare.length = nil
    let partial = try #require(RenderTests.line(.json, bars: [0.5], nowPlaying: bare))
    #expect(partial.contains(#""player":"mpv","title":"Song & \"One\"","morph":"#), "\(partial)")
    let none = try #require(RenderTests.line(.json, bars: [0.5]))
    #expect(!none.contains("\"player\"") && !none.contains("\"title\""))
  }

  @Test func waybarTooltipIsTheTemplateWithEscapedValues() throws {
    let line = try #require(RenderTests.line(.waybar, bars: [0.5], nowPlaying: Self.song))
    #expect(
      line.contains(#""tooltip":"Playing · The Band — Song &amp; \"One\" (mpv)""#), "\(line)")
  }

  @Test func textTitleIsCutOrPaddedToItsWidth() throws {
    let long = try #require(
      RenderTests.line(.text, bars: [1], nowPlaying: Self.song) {
        $0.bubbleMax = 0
        $0.titleWidth = 6
      })
    #expect(long == "\(MorphGlyph.defaultFrames.last!) █ Song …\n")
    let none = try #require(
      RenderTests.line(.text, bars: [1]) {
        $0.bubbleMax = 0
        $0.titleWidth = 4
      })
    #expect(none == "\(MorphGlyph.defaultFrames.last!) █ \u{2007}\u{2007}\u{2007}\u{2007}\n")
  }

  @Test(
    arguments: [
      ("Song", 6, "Song\u{2007}\u{2007}"), ("Longer title", 6, "Longe…"),
      ("日本語の歌", 6, "日本…\u{2007}"), ("e\u{301}te\u{301}", 3, "e\u{301}te\u{301}"),
      ("a\nb", 3, "a b"),
    ] as [(String, Int, String)])
  func titlesFitTheirCells(title: String, cells: Int, expected: String) {
    let fitted = TextCells.fit(title, cells: cells)
    #expect(fitted == expected)
    #expect(TextCells.width(of: fitted) == cells)
  }

  // MARK: - State

  /// mpv keeps its stream running (silent) while paused; the player's word makes it `paused`
  /// after the debounce, not after the silence timeout.
  @Test func pausedPlayerOverridesALingeringStream() {
    var machine = PlaybackStateMachine(silenceTimeout: 2, debounce: 0.15)
    machine.advance(to: 0, activity: .running, signalPresent: true, player: .playing)
    #expect(machine.state == .playing)
    machine.advance(to: 0.1, activity: .running, signalPresent: true, player: .paused)
    #expect(machine.state == .playing, "debounced")
    machine.advance(to: 0.25, activity: .running, signalPresent: true, player: .paused)
    #expect(machine.state == .paused)
    machine.advance(to: 0.3, activity: .running, signalPresent: true, player: .stopped)
    machine.advance(to: 0.45, activity: .running, signalPresent: true, player: .stopped)
    #expect(machine.state == .stopped)
    // Playing again: the audio rules, sound shows at once.
    machine.advance(to: 0.5, activity: .running, signalPresent: true, player: .playing)
    #expect(machine.state == .playing)
  }

  /// From `stopped`, a player that says Paused waits the debounce only: the long hold is for
  /// the audio server's corked-before-running streams, not for a player's word.
  @Test func pausedPlayerFromStoppedWaitsOnlyTheDebounce() {
    var machine = PlaybackStateMachine(silenceTimeout: 2, debounce: 0.15)
    machine.advance(to: 0, activity: .corked, signalPresent: false, player: .paused)
    machine.advance(to: 0.16, activity: .corked, signalPresent: false, player: .paused)
    #expect(machine.state == .paused)
  }

  /// A paused player makes no sound: sound past the tail is another program's (a browser tab
  /// paused for days must not hide it), and the audio decides until the player changes again.
  @Test func soundAfterThePauseTailIsSomeoneElses() {
    var machine = PlaybackStateMachine(silenceTimeout: 2, debounce: 0.15)
    machine.advance(to: 0, activity: .running, signalPresent: true, player: .playing)
    // The pause, with 0.3 s of the player's own sound still draining: paused regardless.
    var time = 0.0
    while time < 0.6 {
      time += 1.0 / 60
      machine.advance(to: time, activity: .running, signalPresent: time < 0.3, player: .paused)
    }
    #expect(machine.state == .paused)
    // Another program plays: past the tail, sound is not the paused player's.
    machine.advance(to: 1, activity: .running, signalPresent: true, player: .paused)
    #expect(machine.state == .playing)
    // Its gaps follow the audio rules (the silence timeout), not the player's word.
    machine.advance(to: 1.5, activity: .running, signalPresent: false, player: .paused)
    #expect(machine.state == .playing)
    // The player plays and pauses again: its word counts again.
    machine.advance(to: 2, activity: .running, signalPresent: true, player: .playing)
    machine.advance(to: 2.1, activity: .running, signalPresent: false, player: .paused)
    machine.advance(to: 2.3, activity: .running, signalPresent: false, player: .paused)
    #expect(machine.state == .paused)
  }

  /// Playing, or no player: the audio decides, silence still counts toward paused.
  @Test func playingPlayerLeavesTheAudioRules() {
    var machine = PlaybackStateMachine(silenceTimeout: 2, debounce: 0.15)
    machine.advance(to: 0, activity: .running, signalPresent: true, player: .playing)
    machine.advance(to: 2.5, activity: .running, signalPresent: false, player: .playing)
    machine.advance(to: 2.7, activity: .running, signalPresent: false, player: .playing)
    #expect(machine.state == .paused)
    machine.advance(to: 3, activity: .none, signalPresent: false, player: .playing)
    machine.advance(to: 3.2, activity: .none, signalPresent: false, player: .playing)
    #expect(machine.state == .stopped)
  }
}

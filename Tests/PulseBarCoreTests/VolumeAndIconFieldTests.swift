import Testing

@testable import PulseBarCore

/// `{volume}` and `{player_icon}`: what they show, how they drop, how `players.icons` and
/// `players.default_icon` are read.
@Suite struct VolumeAndIconFieldTests {
  static func text(_ template: String, _ nowPlaying: NowPlaying?, icons: String = "") throws
    -> String?
  {
    let line = RenderTests.line(.text, bars: [0.5], nowPlaying: nowPlaying) {
      $0.text = template
      if !icons.isEmpty {
        try? ConfigKeys.setting(section: "players", key: "icons")!.apply(icons, &$0)
      }
    }
    return line.map { String($0.dropLast()) }
  }

  @Test(arguments: [
    (0.4, "40%"), (0, "0%"), (1, "100%"), (1.3, "130%"), (0.355, "36%"), (10, "1000%"),
  ])
  func volumeIsAWholePercentage(volume: Double, expected: String) throws {
    // The percentage is pulsebar's own text: no polybar `%{` escape after its `%`.
    let playing = NowPlaying(player: "mpv", status: .playing, volume: volume)
    let line = try Self.text("[{volume}]", playing)
    // The line keeps {volume}'s 4 cells: padded after it when the value is shorter.
    let padding = String(repeating: "\u{2007}", count: max(0, 4 - expected.count))
    #expect(line == "[\(expected)]" + padding, "\(String(describing: line))")
  }

  /// A player that does not say its volume, or no player: the field goes with its brackets.
  /// json carries the volume as the player says it (1 is 100 %), and leaves it out when unknown.
  @Test func jsonCarriesTheVolume() throws {
    let playing = NowPlaying(player: "mpv", status: .playing, volume: 0.45)
    let line = try #require(RenderTests.line(.json, bars: [0.5], nowPlaying: playing))
    #expect(line.contains(#""player":"mpv","volume":0.450,"#), "\(line)")
    let silent = NowPlaying(player: "mpv", status: .playing)
    let without = try #require(RenderTests.line(.json, bars: [0.5], nowPlaying: silent))
    #expect(!without.contains("volume"), "\(without)")
  }

  @Test func volumeDropsWhenUnknown() throws {
    #expect(
      try Self.text("{title} ({volume})", NowPlaying(player: "a", status: .playing, title: "T"))
        == "T")
    // The field goes, the line keeps its width: "x (" + 4 cells + ")" in all.
    #expect(try Self.text("x ({volume})", nil) == "x " + String(repeating: "\u{2007}", count: 6))
    // With a width it pads instead.
    #expect(try Self.text("{volume:4}|", nil) == "\u{2007}\u{2007}\u{2007}\u{2007}|")
  }

  @Test(arguments: [
    ("spotify", "S"), ("firefox.instance_1_84", "F"), ("mpv", "M"), ("vlc", "◉"),
    ("org.mpris.MediaPlayer2.spotify", "S"),
  ])
  func iconsMatchBusNamePrefixes(player: String, expected: String) throws {
    let icons = PlayerIcons(entries: [
      .init(name: "spotify", icon: "S"), .init(name: "firefox", icon: "F"),
      .init(name: "mpv", icon: "M"),
    ])
    #expect(icons.icon(for: player) == expected)
    let line = try Self.text(
      "{player_icon} {player}", NowPlaying(player: player, status: .paused),
      icons: "spotify:S, firefox:F, mpv:M")
    #expect(line == "\(expected) \(player)")
  }

  @Test func iconDropsWithNoPlayerOrAnEmptyDefault() throws {
    // The field and its brackets go; the line keeps the widest icon's width ("<◉>|").
    #expect(try Self.text("<{player_icon}>|", nil) == "|\u{2007}\u{2007}\u{2007}")
    let line = RenderTests.line(
      .text, bars: [0.5], nowPlaying: NowPlaying(player: "vlc", status: .paused)
    ) {
      $0.text = "<{player_icon}>|"
      $0.playerIcons.fallback = ""
    }
    // No icon is configured at all: the field takes nothing.
    #expect(line == "|\n")
  }

  @Test func iconsAreRead() throws {
    let configuration = try ConfigParser.parse(
      "[players]\nicons = spotify:, firefox : F ,mpv:🎵, a:b:c\ndefault_icon = ♯\n", file: "x")
    #expect(
      configuration.playerIcons
        == PlayerIcons(
          entries: [
            .init(name: "spotify", icon: ""), .init(name: "firefox", icon: "F"),
            .init(name: "mpv", icon: "🎵"), .init(name: "a", icon: "b:c"),
          ], fallback: "♯"))
    #expect(Configuration().playerIcons == PlayerIcons(entries: [], fallback: "◉"))
  }

  @Test(arguments: [
    ("icons = spotify", "expected name:icon pairs"), ("icons = :S", "expected a player name"),
    ("icons = mpv:\u{7}", "icons must be printable, got U+0007"),
    ("icons = mpv:ABCDE", "icon 'ABCDE' is 5 cells; at most 4"),
    ("default_icon = 日本語", "icon '日本語' is 6 cells; at most 4"),
    ("default_icon = a\u{202E}", "icons must be printable, got U+202E"),
  ])
  func badIconsAreConfigErrors(line: String, message: String) {
    #expect {
      try ConfigParser.parse("[players]\n\(line)\n", file: "f.conf")
    } throws: { error in
      "\(error)".hasPrefix("f.conf:2: ") && "\(error)".contains(message)
    }
  }
}

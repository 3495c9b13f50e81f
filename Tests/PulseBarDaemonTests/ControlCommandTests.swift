import Testing

@testable import PulseBarDaemon
@testable import PulseBarPlayers

/// `pulsebar ctl`: its arguments, and what it says with no bus to talk to.
@Suite struct ControlCommandTests {
  @Test(arguments: PlayerControl.Action.allCases.filter { $0.operand == nil })
  func everyActionParses(_ action: PlayerControl.Action) throws {
    #expect(
      try CommandLineParser.parse(["ctl", action.rawValue])
        == .control(ControlOptions(action: action, player: nil)))
  }

  /// The value after volume, seek and position is theirs, even when it starts with '-'.
  @Test(arguments: [
    (["ctl", "volume", "+5%"], PlayerControl.Request.volume(.step(0.05)), nil as String?),
    (["ctl", "volume", "-5%", "--player", "mpv"], .volume(.step(-0.05)), "mpv"),
    (["ctl", "--player=mpv", "volume", "0.4"], .volume(.level(0.4)), "mpv"),
    (["ctl", "seek", "-10"], .seek(microseconds: -10_000_000), nil),
    (["ctl", "--player", "vlc", "seek", "+10"], .seek(microseconds: 10_000_000), "vlc"),
    (["ctl", "position", "1:23"], .position(microseconds: 83_000_000), nil),
  ])
  func actionsWithValuesParse(
    arguments: [String], request: PlayerControl.Request, player: String?
  ) throws {
    #expect(
      try CommandLineParser.parse(arguments)
        == .control(ControlOptions(request: request, player: player)))
  }

  @Test(arguments: [
    (["ctl", "volume"], "ctl: volume needs LEVEL: "),
    (["ctl", "volume", "--player", "mpv"], "ctl: volume needs LEVEL: "),
    (["ctl", "volume", "loud"], "ctl: bad volume 'loud': expected "),
    (["ctl", "volume", "150%"], "ctl: volume '150%' is out of range: "),
    (["ctl", "seek", "nan"], "ctl: bad offset 'nan': "),
    (["ctl", "position", "-1:23"], "ctl: bad position '-1:23': "),
    (["ctl", "position", "1:23", "1:24"], "ctl: unexpected '1:24' "),
  ])
  func badValuesAreOneUsageLine(arguments: [String], start: String) {
    #expect {
      try CommandLineParser.parse(arguments)
    } throws: { error in
      (error as? UsageError)?.message.hasPrefix(start) == true
    }
  }

  @Test func playerIsOptionalEitherSpelling() throws {
    let expected = Command.control(ControlOptions(action: .next, player: "mpv"))
    #expect(try CommandLineParser.parse(["ctl", "next", "--player", "mpv"]) == expected)
    #expect(try CommandLineParser.parse(["ctl", "--player=mpv", "next"]) == expected)
  }

  @Test(arguments: [
    ["ctl"], ["ctl", "stop-it"], ["ctl", "play", "pause"], ["ctl", "play", "--player"],
    ["ctl", "play", "--volume", "3"],
  ])
  func badArgumentsAreUsageErrors(_ arguments: [String]) {
    #expect(throws: UsageError.self) { try CommandLineParser.parse(arguments) }
  }

  @Test func noBusIsExitOneWithOneLine() throws {
    let result = try Binary.run(
      ["ctl", "play-pause"], environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"])
    #expect(result.status == 1)
    #expect(result.lines.isEmpty)
    #expect(
      result.error
        == "pulsebar: no session bus at unix:path=/nonexistent: No such file or directory; no player to control\n"
    )
  }
}

import Testing

@testable import PulseBarDaemon
@testable import PulseBarPlayers

/// `pulsebar ctl`: its arguments, and what it says with no bus to talk to.
@Suite struct ControlCommandTests {
  @Test(arguments: PlayerControl.Action.allCases)
  func everyActionParses(_ action: PlayerControl.Action) throws {
    #expect(
      try CommandLineParser.parse(["ctl", action.rawValue])
        == .control(ControlOptions(action: action, player: nil)))
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

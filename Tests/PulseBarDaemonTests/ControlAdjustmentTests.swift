import Glibc
import PulseBarTestSupport
import Testing

/// `pulsebar ctl volume|seek|position` against fake players (Tests/Fixtures/fake-mpris-player.py)
/// on a private bus: the calls and values each sends, what it says when a player cannot take
/// them, and the 1.2 s bound a bar's scroll waits for, whatever the player does.
@Suite(.serialized) struct ControlAdjustmentTests {
  /// `ctl` with `arguments` on `bus` (no user config), timed from the spawn to the exit.
  static func control(_ arguments: [String], bus: PrivateSessionBus, home: String) throws -> (
    status: Int32, error: String, seconds: Double
  ) {
    let start = ChildProcess.now()
    let result = try Binary.run(
      ["ctl"] + arguments,
      environment: bus.environment.merging(["XDG_CONFIG_HOME": home]) { $1 }, timeout: 10)
    return (result.status, result.error, ChildProcess.now() - start)
  }

  /// Each action's call and its value: steps from the player's own `Volume` (stopping at 0
  /// and 100 %), a level, a seek by signed microseconds, a position with the track's id.
  @Test func actionsSendTheirCallsAndValues() throws {
    try withTemporaryDirectory { directory in
      let bus = try PrivateSessionBus(directory: directory)
      let player = try ControlDeadlineTests.fake(
        ["--name", "fake", "--volume", "0.35"], bus: bus)
      let steps: [([String], String)] = [
        (["volume", "+5%"], "set Volume 0.4"),
        (["volume", "-5%"], "set Volume 0.35"),
        (["volume", "0.98"], "set Volume 0.98"),
        (["volume", "+5%"], "set Volume 1"),
        (["volume", "+5%"], "set Volume 1"),
        (["volume", "40%"], "set Volume 0.4"),
        (["volume", "-100%"], "set Volume 0"),
        (["seek", "-10"], "called Seek -10000000"),
        (["seek", "+10", "--player", "fake"], "called Seek 10000000"),
        (["position", "1:23"], "called SetPosition /org/pulsebar/track/1 83000000"),
      ]
      for (arguments, said) in steps {
        let result = try Self.control(arguments, bus: bus, home: directory)
        #expect(result.status == 0, "\(arguments): \(result.error)")
        #expect(player.readLine(timeout: 5) == said, "\(arguments)")
      }
    }
  }

  /// A player that does not say its volume gets no step (a step from nothing would be a
  /// guess); a level still reaches it.
  @Test func aStepNeedsThePlayersVolume() throws {
    try withTemporaryDirectory { directory in
      let bus = try PrivateSessionBus(directory: directory)
      let player = try ControlDeadlineTests.fake(["--name", "mute"], bus: bus)
      let step = try Self.control(["volume", "+5%"], bus: bus, home: directory)
      #expect(step.status == 1)
      #expect(step.error == "pulsebar: mute: it does not say its volume\n")
      let level = try Self.control(["volume", "0.5"], bus: bus, home: directory)
      #expect(level.status == 0, "\(level.error)")
      #expect(player.readLine(timeout: 5) == "set Volume 0.5")
    }
  }

  /// A player that hangs on the read (`Get Volume`, `Get Metadata`) or on the call itself
  /// (`Set`, `Seek`): ctl gives up and says so within 1.2 s.
  @Test(arguments: [
    (["--hang"], ["volume", "+5%"]), (["--hang-set", "--volume", "0.5"], ["volume", "+5%"]),
    (["--hang"], ["position", "1:23"]), (["--hang-set"], ["position", "1:23"]),
    (["--hang"], ["seek", "-10"]),
  ])
  func aHungPlayerCostsAtMostTheBudget(player: [String], arguments: [String]) throws {
    try withTemporaryDirectory { directory in
      let bus = try PrivateSessionBus(directory: directory)
      let hung = try ControlDeadlineTests.fake(["--name", "hung"] + player, bus: bus)
      let result = try Self.control(arguments, bus: bus, home: directory)
      print(
        "ctl figure: \(arguments.joined(separator: " ")) on a hung player, \(Int(result.seconds * 1000)) ms"
      )
      #expect(result.seconds < 1.2, "ctl took \(result.seconds) s")
      #expect(result.status == 1)
      #expect(
        result.error.hasPrefix("pulsebar: hung: no reply in ")
          && result.error.hasSuffix(" ms (the call was sent)\n"), "\(result.error)")
      _ = hung
    }
  }
}

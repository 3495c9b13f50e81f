import Glibc
import PulseBarTestSupport
import Testing

/// `pulsebar ctl` runs on a bar click and the bar waits for it: whatever the players do, it
/// returns within 1.2 s. Fake players (Tests/Fixtures/fake-mpris-player.py) on a private bus.
@Suite(.serialized) struct ControlDeadlineTests {
  /// Starts the fake player with `arguments` on `bus`; waits for its "ready" line.
  static func fake(_ arguments: [String], bus: PrivateSessionBus) throws -> ChildProcess {
    let player = try ChildProcess(
      "/usr/bin/python3", [HostilePlayerTests.script] + arguments, environment: bus.environment)
    try #require(player.readLine(timeout: 10) == "ready", "\(player.standardError)")
    return player
  }

  /// `ctl ACTION` on `bus`, timed from the spawn to the exit.
  static func control(_ action: String, bus: PrivateSessionBus, home: String) throws -> (
    status: Int32, error: String, seconds: Double
  ) {
    let start = ChildProcess.now()
    let result = try Binary.run(
      ["ctl", action], environment: bus.environment.merging(["XDG_CONFIG_HOME": home]) { $1 },
      timeout: 10)
    return (result.status, result.error, ChildProcess.now() - start)
  }

  /// The only player hangs on every call, its PlayPause too: ctl sends the call, gives up
  /// waiting for the reply and says so, in 1.2 s (it waited 5 s for the reply before).
  @Test func aHungPlayerCostsAtMostTheBudget() throws {
    try withTemporaryDirectory { directory in
      let bus = try PrivateSessionBus(directory: directory)
      let hung = try Self.fake(["--name", "hung", "--hang"], bus: bus)
      let result = try Self.control("play-pause", bus: bus, home: directory)
      print("ctl figure: one hung player, \(Int(result.seconds * 1000)) ms")
      #expect(result.seconds < 1.2, "ctl took \(result.seconds) s")
      #expect(result.status == 1)
      #expect(
        result.error.hasPrefix("pulsebar: hung: no reply in ")
          && result.error.hasSuffix(" ms (the call was sent)\n"), "\(result.error)")
      _ = hung
    }
  }

  /// Hung players beside a good, paused one: the states are asked under part of the budget,
  /// and the call still reaches the good player within 1.2 s.
  @Test func hungPlayersLeaveTimeForTheCall() throws {
    try withTemporaryDirectory { directory in
      let bus = try PrivateSessionBus(directory: directory)
      var players: [ChildProcess] = []
      for index in 0..<3 {
        players.append(try Self.fake(["--name", "hung\(index)", "--hang"], bus: bus))
      }
      let good = try Self.fake(["--name", "good", "--status", "Paused"], bus: bus)
      let result = try Self.control("play", bus: bus, home: directory)
      print("ctl figure: three hung players and a paused one, \(Int(result.seconds * 1000)) ms")
      #expect(result.status == 0, "\(result.error)")
      #expect(result.seconds < 1.2, "ctl took \(result.seconds) s")
      #expect(good.readLine(timeout: 5) == "called Play")
      _ = players
    }
  }
}

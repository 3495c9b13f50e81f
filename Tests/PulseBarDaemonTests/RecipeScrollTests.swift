import Glibc
import PulseBarTestSupport
import Testing

/// Volume and seek from the bar: the shipped recipes' scroll bindings in the real polybar
/// (Xvfb, xdotool scrolling on the module) and the real i3blocks (clicks on its stdin, as
/// i3bar sends them), and `ctl seek`, `position` and `volume` on real mpv with mpv-mpris.
/// Waybar's `on-scroll-up`/`down` are only parsed (SocketExampleTests): headless sway gives
/// no pointer to scroll with.
@Suite("scrolling on the module steps the player's volume", .serialized)
struct RecipeScrollTests {
  /// A property of mpv's `org.mpris.MediaPlayer2.Player`, as busctl prints it (`d 0.950000`).
  static func mpvProperty(_ name: String, bus: PrivateSessionBus) throws -> Double? {
    let query = try ChildProcess(
      "busctl",
      [
        "--address=" + bus.address, "get-property", "org.mpris.MediaPlayer2.mpv",
        "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", name,
      ])
    let line = query.readLine(timeout: 5)
    _ = try query.waitForExit(timeout: 5)
    return line.flatMap { $0.split(separator: " ").last.flatMap { Double($0) } }
  }

  /// Waits until mpv's `name` satisfies `predicate`; its last value.
  static func waitForMPV(
    _ name: String, bus: PrivateSessionBus, timeout: Double = 5, _ predicate: (Double) -> Bool
  ) throws -> Double? {
    var value: Double?
    let deadline = ChildProcess.now() + timeout
    repeat {
      value = try mpvProperty(name, bus: bus)
      if let value, predicate(value) { return value }
      usleep(100_000)
    } while ChildProcess.now() < deadline
    return value
  }

  @Test(
    "polybar: scroll down and up on the module steps mpv's volume by 5 %",
    .enabled(if: PolybarTests.missing == nil, "\(PolybarTests.missing ?? "")"))
  func polybarScrollStepsTheVolume() throws {
    let desktop = try RealBarDesktop(monospace: "DejaVu Sans Mono", daemonConfig: "")
    try desktop.startDaemon()
    let bar = try PolybarTests.Polybar(desktop: desktop, name: "polybar")
    try desktop.play()
    #expect(desktop.waitForState("playing"), "the daemon never played")
    #expect(try Self.waitForMPV("Volume", bus: desktop.bus) { $0 == 1 } == 1, "mpv starts at 100 %")
    let found = try RealBarChecks.waitFor(bar, timeout: 20) { PolybarTests.isState($0, "playing") }
    let (seen, _) = try #require(found, "the module never drew: \(RealBarChecks.describe(bar))")
    let x = (seen.box.lowerBound + seen.box.upperBound) / 2
    let y = (seen.rows.lowerBound + seen.rows.upperBound) / 2
    func scroll(_ button: Int) throws {
      let tool = try ChildProcess(
        "xdotool", ["mousemove", "\(x)", "\(y)", "click", "\(button)"],
        environment: ["DISPLAY": bar.display])
      #expect(try tool.waitForExit(timeout: 10) == 0, "xdotool: \(tool.standardError)")
    }
    try scroll(5)
    let down = try Self.waitForMPV("Volume", bus: desktop.bus) { abs($0 - 0.95) < 0.001 }
    #expect(down.map { abs($0 - 0.95) < 0.001 } == true, "after a scroll down: \(down ?? -1)")
    try scroll(4)
    let up = try Self.waitForMPV("Volume", bus: desktop.bus) { $0 == 1 }
    #expect(up == 1, "after a scroll up: \(up ?? -1); polybar's log: \(bar.log().suffix(5))")
  }

  @Test(
    "mpv: ctl volume, seek and position move the real player",
    .enabled(if: PolybarTests.missing == nil, "\(PolybarTests.missing ?? "")"))
  func realMPVTakesEveryAction() throws {
    let desktop = try RealBarDesktop(monospace: "DejaVu Sans Mono", daemonConfig: "")
    try desktop.play()
    #expect(try Self.waitForMPV("Volume", bus: desktop.bus, timeout: 10) { $0 == 1 } == 1)
    func control(_ arguments: [String]) throws {
      let result = try Binary.run(["ctl"] + arguments, environment: desktop.bus.environment)
      #expect(result.status == 0, "ctl \(arguments): \(result.error)")
    }
    try control(["volume", "0.4"])
    #expect(try Self.waitForMPV("Volume", bus: desktop.bus) { abs($0 - 0.4) < 0.001 } == 0.4)
    try control(["volume", "-5%"])
    let stepped = try Self.waitForMPV("Volume", bus: desktop.bus) { abs($0 - 0.35) < 0.001 }
    #expect(stepped.map { abs($0 - 0.35) < 0.001 } == true, "\(stepped ?? -1)")
    // Position is in microseconds; the track is 30 s long and loops.
    try control(["position", "0:20"])
    let position = try Self.waitForMPV("Position", bus: desktop.bus) { $0 >= 20_000_000 }
    #expect((20_000_000..<23_000_000).contains(position ?? 0), "\(position ?? -1)")
    try control(["seek", "-10"])
    let back = try Self.waitForMPV("Position", bus: desktop.bus) { $0 < 14_000_000 }
    #expect((10_000_000..<14_000_000).contains(back ?? 0), "\(back ?? -1)")
  }

  /// i3blocks 1.4 sends a persistent block no clicks: the snippet's `pulsebar-ctl` block takes
  /// them. Clicks arrive on i3blocks' stdin as i3bar writes them.
  @Test(
    "i3blocks: buttons 4 and 5 on the snippet's control block step the volume, 1 plays or pauses",
    .enabled(if: access("/usr/bin/i3blocks", X_OK) == 0, "i3blocks is not installed"))
  func i3blocksButtonsReachThePlayer() throws {
    try withTemporaryDirectory { directory in
      let bus = try PrivateSessionBus(directory: directory)
      let player = try ControlDeadlineTests.fake(["--name", "fake", "--volume", "0.5"], bus: bus)
      let config = directory + "/i3blocks.conf"
      try writeTextFile(
        config, try readTextFile(PackageRoot.path + "/config/examples/i3blocks.conf"))
      var environment = bus.environment
      environment["PATH"] = PackageRoot.path + "/.build/debug:/usr/local/bin:/usr/bin:/bin"
      environment["XDG_CONFIG_HOME"] = directory
      environment["XDG_RUNTIME_DIR"] = directory
      let bar = try ChildProcess(
        "i3blocks", ["-c", config], environment: environment, stdin: true)
      defer {
        bar.send(SIGTERM)
        _ = try? bar.waitForExit(timeout: 5)
      }
      let drawn = bar.waitForLine(timeout: 10) { $0.contains("\"name\":\"pulsebar-ctl\"") }
      try #require(drawn != nil, "the control block never showed: \(bar.standardError)")
      bar.writeToStdin("[\n")
      for (index, (button, said)) in [
        (4, "set Volume 0.55"), (5, "set Volume 0.5"), (1, "called PlayPause"),
      ]
      .enumerated() {
        let comma = index == 0 ? "" : ","
        bar.writeToStdin(
          "\(comma){\"name\":\"pulsebar-ctl\",\"instance\":\"\",\"button\":\(button),\"x\":1,\"y\":1}\n"
        )
        #expect(player.readLine(timeout: 5) == said, "button \(button)")
        // i3blocks drops a click while the block's command still runs (ctl exits just after
        // the player's reply, then the block echoes its text): give it time to end.
        usleep(500_000)
      }
    }
  }
}

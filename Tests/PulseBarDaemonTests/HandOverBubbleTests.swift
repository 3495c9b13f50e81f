import Glibc
import PulseBarCore
import PulseBarTestSupport
import Testing

/// No bubble from a hand-over, end to end: mpv plays a steady tone (no onset in it) before the
/// daemon starts, on a private audio server and session bus; the daemon starts amid it, hands
/// over to mpv's own stream, and 20 reloads then switch `input.scope` between `output` (the
/// sink's monitor) and `player` (mpv's stream) and back. Every one of those switches makes a
/// step in the captured audio, and none may spawn a bubble.
@Suite("no bubble from a hand-over, end to end", .serialized)
struct HandOverBubbleTests {
  typealias Frame = PulseEndToEndTests.Frame

  @Test(
    "a steady tone across the daemon's start and 20 hand-overs spawns no bubble",
    arguments: PlayerScopeTests.setups)
  func aSteadyToneSpawnsNoBubble(_ setup: PlayerScopeTests.Setup) throws {
    try setup.kind.skipUnlessRunnable()
    try #require(MPRISFixtures.mprisPlugin != nil, "mpv-mpris is not installed")
    let server = try setup.kind.start()
    defer { server.stop() }
    let bus = try PrivateSessionBus(directory: server.directory)
    defer { bus.stop() }
    let environment = server.environment.merging(bus.environment) { $1 }
    let track = server.directory + "/steady.wav"
    _ = try server.run(
      "sox", ["-n", "-r", "48000", track, "synth", "120", "sine", "200", "vol", "0.5"])
    let mpv = try MPRISFixtures.mpv([track], paused: false, environment: environment)
    defer { mpv.send(SIGKILL) }
    try #require(Self.waitForSinkInput(of: "mpv", on: server), "mpv never played")

    let configPath = server.directory + "/pulsebar.conf"
    MPRISFixtures.writeScopeConfig("player", to: configPath)
    let daemon = try ChildProcess(
      Binary.path,
      ["run", "--input", setup.input, "--format", "json", "--bars", "8", "--config", configPath],
      environment: environment)
    defer {
      daemon.send(SIGTERM)
      _ = try? daemon.waitForExit(timeout: 5)
    }
    var frames: [Frame] = []
    func waitForSource(_ predicate: (String) -> Bool) -> Bool {
      daemon.waitForLine(timeout: 20) { line in
        frames.append(Frame(line))
        return predicate(Frame(line).source)
      } != nil
    }
    try #require(waitForSource { $0.hasPrefix("mpv (") }, "no hand-over to mpv's stream")
    var handOvers = 1
    for _ in 0..<10 {
      frames += daemon.readLines(for: 0.3).map(Frame.init)
      MPRISFixtures.writeScopeConfig("output", to: configPath)
      daemon.send(SIGHUP)
      try #require(waitForSource { $0 == "pb_sink_a.monitor" }, "no switch to the output")
      frames += daemon.readLines(for: 0.3).map(Frame.init)
      MPRISFixtures.writeScopeConfig("player", to: configPath)
      daemon.send(SIGHUP)
      try #require(waitForSource { $0.hasPrefix("mpv (") }, "no switch to mpv's stream")
      handOvers += 2
    }
    frames += daemon.readLines(for: 0.5).map(Frame.init)
    let bubbles = Set(frames.flatMap(PlayerScopeTests.Window.bubbleIds))
    let playing = frames.filter { $0.state == "playing" }.count
    #expect(playing > frames.count / 2, "the tone played: \(playing) of \(frames.count) frames")
    #expect(bubbles.isEmpty, "\(bubbles.count) bubbles in \(handOvers) hand-overs")
  }

  /// Whether a sink input of `application` shows within 10 s.
  static func waitForSinkInput(of application: String, on server: any PrivateAudioServer) -> Bool {
    for _ in 0..<100 {
      let lines = (try? server.pactl(["list", "sink-inputs"])) ?? []
      if lines.contains(where: { $0.contains("application.name = \"\(application)\"") }) {
        return true
      }
      usleep(100_000)
    }
    return false
  }
}

import Glibc
import PulseBarCore
import PulseBarSystem
import PulseBarTestSupport
import Testing

/// `input.scope`, end to end: the real daemon on a private audio server and session bus, mpv
/// (mpv-mpris) playing a tone while `paplay`, which has no MPRIS, plays 2000 Hz beeps into the
/// same sink. With `player` the bars follow mpv's stream alone; pausing it, a second mpv, mpv
/// quitting, a player whose audio comes from its child process, and a reload to `output` and
/// back are each followed. The checks are on levels and on what `source` names, never on how
/// fast a change shows (that is `pulsebar-bench player`'s).
@Suite("input.scope = player, end to end", .serialized)
struct PlayerScopeTests {
  typealias Frame = PulseEndToEndTests.Frame

  /// A server kind and the daemon's `--input` on it.
  struct Setup: Sendable, CustomStringConvertible {
    var kind: AudioServerKind
    var input: String
    var description: String { "\(kind) --input \(input)" }
  }

  static let setups = [
    Setup(kind: .pulseaudio, input: "pulse"), Setup(kind: .pipewire, input: "pulse"),
    Setup(kind: .pipewire, input: "pipewire"),
  ]

  /// The bar each tone lands in (8 bars, 50 Hz to 10 kHz, the defaults).
  static func bar(of hertz: Float) -> Int {
    let layout = try? BandLayout(
      barsPerChannel: 8, lowCutoff: 50, highCutoff: 10000,
      sizes: TransformSizes(sampleRate: 48000))
    return layout?.bands.firstIndex { $0.lowerHz <= hertz && hertz < $0.upperHz } ?? -1
  }

  /// A private server and bus, the daemon on them with a config file that sets the scope,
  /// the beeps playing.
  final class Desktop {
    let server: any PrivateAudioServer
    let bus: PrivateSessionBus
    let daemon: ChildProcess
    let configPath: String
    /// The beeps, and the wrapper's fake player.
    private var children: [ChildProcess] = []
    /// The mpv players started.
    private var players: [ChildProcess] = []
    var environment: [String: String] { server.environment.merging(bus.environment) { $1 } }

    init(_ setup: Setup, scope: CaptureScope) throws {
      try setup.kind.skipUnlessRunnable()
      try #require(MPRISFixtures.mprisPlugin != nil, "mpv-mpris is not installed")
      server = try setup.kind.start()
      bus = try PrivateSessionBus(directory: server.directory)
      configPath = server.directory + "/pulsebar.conf"
      MPRISFixtures.writeScopeConfig(scope.rawValue, to: configPath)
      daemon = try ChildProcess(
        Binary.path,
        [
          "run", "--input", setup.input, "--format", "json", "--bars", "8", "-v", "--config",
          configPath,
        ], environment: server.environment.merging(bus.environment) { $1 })
      try #require(daemon.readLine(timeout: 10) != nil, "no first frame: \(daemon.standardError)")
      let beeps = try MPRISFixtures.beeps(in: server.directory, seconds: 120)
      children.append(try server.play(file: beeps))
    }

    deinit {
      for child in children + players { child.send(SIGKILL) }
      daemon.send(SIGTERM)
      _ = try? daemon.waitForExit(timeout: 5)
      bus.stop()
      server.stop()
    }

    /// A 30 s tone of `hertz` tagged `title`, played by a new mpv.
    func mpv(_ hertz: Int) throws -> ChildProcess {
      let track = try MPRISFixtures.taggedTrack(
        in: server.directory, "tone\(hertz)", title: "Tone \(hertz)", hertz: hertz)
      let player = try MPRISFixtures.mpv([track], paused: false, environment: environment)
      players.append(player)
      return player
    }

    /// Ends every mpv.
    func quitPlayers() {
      for player in players {
        player.send(SIGTERM)
        _ = try? player.waitForExit(timeout: 5)
      }
      players.removeAll()
    }

    /// The fake MPRIS player whose audio a child `paplay` plays (a wrapper script's player).
    func wrapper(playing hertz: Int) throws -> ChildProcess {
      let file = "\(server.directory)/wrapped-\(hertz).wav"
      try server.run(
        "sox",
        ["-n", "-r", "44100", "-c", "2", "-b", "16", file, "synth", "30", "sine", "\(hertz)"])
      let player = try ChildProcess(
        "/usr/bin/python3", [HostilePlayerTests.script, "--name", "wrapper", "--play", file],
        environment: environment)
      children.append(player)
      return player
    }

    /// `pulsebar ctl …` against this bus.
    func control(_ arguments: [String]) throws -> Int32 {
      try Binary.run(["ctl"] + arguments, environment: environment, timeout: 10).status
    }

    /// Rewrites the config with `scope` and reloads the daemon.
    func reload(scope: CaptureScope) {
      MPRISFixtures.writeScopeConfig(scope.rawValue, to: configPath)
      daemon.send(SIGHUP)
    }

    /// Frames until one's `source` satisfies `predicate` (each frame read on the way is in
    /// `seen`), or nil.
    func waitForSource(
      timeout: Double = 20, seen: inout [Frame], _ predicate: (String) -> Bool
    ) -> Frame? {
      let line = daemon.waitForLine(timeout: timeout) { line in
        let frame = Frame(line)
        seen.append(frame)
        return predicate(frame.source)
      }
      return line.map(Frame.init)
    }

    func waitForSource(timeout: Double = 20, _ predicate: (String) -> Bool) -> Frame? {
      var seen: [Frame] = []
      return waitForSource(timeout: timeout, seen: &seen, predicate)
    }

    /// Reads frames until `bar` has fallen to `level` or less (what was recorded before a
    /// switch fades out: how fast depends on the machine's load, not on the switch), at most
    /// `timeout` seconds.
    func waitUntil(bar: Int, fallsTo level: Double, timeout: Double = 10) {
      _ = daemon.waitForLine(timeout: timeout) {
        (Frame($0).bars.dropFirst(bar).first ?? 1) <= level
      }
    }

    /// Reads frames until the recorded player's tone (`bar`) stands at `level` or more, then
    /// half a second more: the capture has handed over to the player's stream (its first
    /// fragment), whenever the server delivers it, and the switch's own onset is behind.
    func waitUntilSettled(on bar: Int, at level: Double = 0.8, timeout: Double = 10) {
      _ = daemon.waitForLine(timeout: timeout) {
        (Frame($0).bars.dropFirst(bar).first ?? 0) >= level
      }
      _ = frames(for: 0.5)
    }

    /// The sink input whose `application.name` is `application` (`pactl list sink-inputs`).
    func sinkInput(of application: String) -> String? {
      var current: String?
      for line in (try? server.pactl(["list", "sink-inputs"])) ?? [] {
        if line.hasPrefix("Sink Input #") { current = String(line.dropFirst(12)) }
        if line.contains("application.name = \"\(application)\"") { return current }
      }
      return nil
    }

    /// The frames of the next `seconds`.
    func frames(for seconds: Double) -> [Frame] { daemon.readLines(for: seconds).map(Frame.init) }
  }

  /// What a window of frames showed: one bar's highest level and its median, and the bubbles
  /// that appeared in it.
  struct Window {
    let frames: [Frame]

    func highest(_ bar: Int) -> Double {
      frames.compactMap { $0.bars.dropFirst(bar).first }.max() ?? 0
    }

    func median(_ bar: Int) -> Double {
      let levels = frames.compactMap { $0.bars.dropFirst(bar).first }.sorted()
      return levels.isEmpty ? 0 : levels[levels.count / 2]
    }

    /// Whether `bar` shows another stream's sound while the tone in bar `tone` is recorded:
    /// its highest level is above 0.05 and above twice that of every bar away from both (not
    /// `bar`, not `tone` or the bars beside it). A click in the recorded player's own audio
    /// (an underrun on a loaded machine) lifts every bar alike; a leak lifts its own.
    func leaks(_ bar: Int, recording tone: Int) -> Bool {
      let others = (frames.first?.bars.indices ?? 0..<0).filter { abs($0 - tone) > 1 && $0 != bar }
      let floor = others.map(highest).max() ?? 0
      return highest(bar) > max(0.05, 2 * floor)
    }

    /// Bubble ids in the window's frames that its first frame did not have.
    var newBubbles: Set<Int> {
      guard let first = frames.first else { return [] }
      return Set(frames.flatMap(Self.bubbleIds)).subtracting(Self.bubbleIds(first))
    }

    static func bubbleIds(_ frame: Frame) -> [Int] {
      frame.line.split(separator: "\"id\":").dropFirst().compactMap {
        Int($0.prefix { $0.isNumber })
      }
    }

    var summary: String {
      let bars = (frames.first?.bars.indices ?? 0..<0).map(highest)
      return "each bar's highest \(bars), new bubbles \(newBubbles.count), "
        + "sources \(Set(frames.map(\.source)))"
    }
  }

  @Test(
    "the bars follow mpv's stream alone, the beeps show when it pauses or quits or with output",
    arguments: setups)
  func followsThePlayer(_ setup: Setup) throws {
    let desktop = try Desktop(setup, scope: .player)
    let low = Self.bar(of: 200)
    let beep = Self.bar(of: 2000)
    try #require(low >= 0 && beep > low)
    _ = try desktop.mpv(200)
    let recorded = desktop.waitForSource { $0.hasPrefix("mpv (") }
    try #require(recorded != nil, "mpv's stream never recorded: \(desktop.daemon.standardError)")
    desktop.waitUntil(bar: beep, fallsTo: 0.05)
    desktop.waitUntilSettled(on: low)
    let player = Window(frames: desktop.frames(for: 2.5))
    #expect(player.median(low) >= 0.8, "\(player.summary)")
    #expect(!player.leaks(beep, recording: low), "the beeps leak: \(player.summary)")
    #expect(player.newBubbles.isEmpty, "bubbles on the beeps: \(player.summary)")

    // mpv's stream moved to the other sink (the beeps stay): still mpv's alone.
    let index = try #require(desktop.sinkInput(of: "mpv"), "no sink input of mpv")
    try desktop.server.pactl(["move-sink-input", String(index), "pb_sink_b"])
    _ = desktop.frames(for: 1.5)
    let moved = Window(frames: desktop.frames(for: 2.5))
    #expect(moved.median(low) >= 0.8, "after the move: \(moved.summary)")
    #expect(!moved.leaks(beep, recording: low), "the beeps leak after the move: \(moved.summary)")
    try desktop.server.pactl(["move-sink-input", String(index), "pb_sink_a"])
    _ = desktop.frames(for: 1)

    // Live to output and back: the beeps show, and spawn bubbles.
    desktop.reload(scope: .output)
    let output = desktop.waitForSource { !$0.contains("mpv") }
    #expect(output?.source == "pb_sink_a.monitor", "\(desktop.daemon.standardError)")
    let whole = Window(frames: desktop.frames(for: 2.5))
    #expect(whole.highest(beep) >= 0.3, "no beeps with scope output: \(whole.summary)")
    #expect(whole.highest(low) >= 0.5, "\(whole.summary)")
    #expect(!whole.newBubbles.isEmpty, "the beeps spawn no bubble: \(whole.summary)")
    desktop.reload(scope: .player)
    #expect(desktop.waitForSource { $0.hasPrefix("mpv (") } != nil, "not back to mpv")

    // Paused: the whole output, the beeps playing on with no `paused` frame.
    _ = desktop.frames(for: 0.5)
    #expect(try desktop.control(["pause"]) == 0)
    var seen: [Frame] = []
    let paused = desktop.waitForSource(seen: &seen) { $0.contains("mpv does not play") }
    #expect(paused != nil, "pausing mpv did not switch: \(Set(seen.map(\.source)))")
    let afterPause = Window(frames: seen + desktop.frames(for: 2.5))
    #expect(afterPause.highest(beep) >= 0.3, "\(afterPause.summary)")
    #expect(
      !afterPause.frames.contains { $0.state == "paused" },
      "states after the pause: \(afterPause.frames.map(\.state))")

    // Playing again, then a second mpv that plays becomes active; the first plays on.
    #expect(try desktop.control(["play"]) == 0)
    #expect(desktop.waitForSource { $0.hasPrefix("mpv (") } != nil, "not back to mpv")
    let second = try desktop.mpv(1000)
    let followed = desktop.waitForSource { $0.hasPrefix("mpv.instance") }
    #expect(followed != nil, "the second mpv was not followed")
    desktop.waitUntil(bar: low, fallsTo: 0.05)
    desktop.waitUntilSettled(on: Self.bar(of: 1000))
    let secondWindow = Window(frames: desktop.frames(for: 2.5))
    #expect(secondWindow.median(Self.bar(of: 1000)) >= 0.8, "\(secondWindow.summary)")
    #expect(
      !secondWindow.leaks(low, recording: Self.bar(of: 1000)),
      "the first mpv leaks: \(secondWindow.summary)")

    // The second quits: back to the first; both quit: the whole output.
    second.send(SIGTERM)
    #expect(desktop.waitForSource { $0.hasPrefix("mpv (") } != nil, "not back to the first mpv")
    desktop.quitPlayers()
    #expect(desktop.waitForSource { $0 == "pb_sink_a.monitor" } != nil, "not back to the output")
    let quit = Window(frames: desktop.frames(for: 2.5))
    #expect(quit.highest(beep) >= 0.3, "\(quit.summary)")

    // A player whose audio comes from its child: matched through the parent chain.
    _ = try desktop.wrapper(playing: 700)
    let wrapped = desktop.waitForSource { $0.hasPrefix("wrapper (") }
    #expect(wrapped != nil, "the wrapper's child was not matched: \(desktop.daemon.standardError)")
    desktop.waitUntil(bar: beep, fallsTo: 0.05)
    desktop.waitUntilSettled(on: Self.bar(of: 700))
    let child = Window(frames: desktop.frames(for: 2.5))
    #expect(child.median(Self.bar(of: 700)) >= 0.8, "\(child.summary)")
    #expect(
      !child.leaks(beep, recording: Self.bar(of: 700)), "the beeps leak: \(child.summary)")
  }
}

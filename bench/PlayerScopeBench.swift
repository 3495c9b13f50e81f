import Glibc
import PulseBarCore
import PulseBarSystem
import PulseBarTestSupport

/// `pulsebar-bench player [pulse|pipewire] [hand-over]`: `input.scope = player` on each server and input, side by side with
/// `output` in one run. mpv (mpv-mpris) plays a 200 Hz tone on a private server and session
/// bus while `paplay`, which has no MPRIS, plays 2000 Hz beeps into the same sink; the daemon
/// writes json to stdout. Figures:
/// - the switch: from the player's `PlaybackStatus` signal on the bus (dbus-monitor's
///   timestamp) to the first json line that names what is recorded now, pausing (to the whole
///   output) and playing again (to the player's stream), and to the first with the player's
///   tone at half height or more; ten of each, and the longest wait between two lines around a
///   switch;
/// - CPU of the daemon and of the server's processes with scope `player` and with `output`
///   (the config reloaded live), mpv alone playing, three rounds of 5 s each, alternating;
/// - leakage: the beeps' bar at its highest over 5 s, with each scope;
/// - the hand-over, in a run of its own: a steady 2000 Hz tone, and a 200 Hz tone that a fake
///   player's child plays on whatever the player says, both on the default sink, so only the
///   player's `PlaybackStatus` changes and the audio never does; 10 switches each way
///   (Paused: to the output; Playing: to the player's stream alone), from the signal on the
///   bus to the first json line that carries the new source's audio: the first whose 2000 Hz
///   bar, steady before, moves (rises with the output, falls without it; `noise_reduction = 0`
///   so it moves with the analysis, no gravity fall-off). Budget 100 ms.
func runPlayerBench() {
  guard let binary = BenchTools.pulsebarWithMPRIS() else { return }
  // `pulsebar-bench player pulse` or `… pipewire`: one server only; `… hand-over`: that alone.
  let arguments = CommandLine.arguments.dropFirst(2)
  let only = arguments.first { $0 == "pulse" || $0 == "pipewire" }
  let handOverOnly = arguments.contains("hand-over")
  let setups: [(AudioServerKind, String)] = [
    (.pulseaudio, "pulse"), (.pipewire, "pulse"), (.pipewire, "pipewire"),
  ].filter { only == nil || (only == "pulse") == ($0.0 == .pulseaudio) }
  if !handOverOnly {
    print(
      pad("server, --input", 26) + pad("to output ms", 14) + pad("to player ms", 14)
        + pad("its tone ms", 14)
        + pad("gap ms", 8) + pad("CPU player", 12) + pad("CPU output", 12) + pad("×", 6)
        + pad("leak player", 13) + "leak output")
  }
  for (kind, input) in setups where !handOverOnly {
    if let reason = kind.missingReason {
      print("(\(kind): \(reason))")
      continue
    }
    do {
      let run = try PlayerBenchRun(binary: binary, kind: kind, input: input)
      print(pad("\(kind), \(input)", 26) + (try run.measure()))
    } catch {
      print("(\(kind), \(input): \(error))")
    }
  }
  for (kind, input) in setups where kind.missingReason == nil {
    do {
      let run = try PlayerBenchRun(binary: binary, kind: kind, input: input, handOver: true)
      print(pad("\(kind), \(input)", 26) + "hand-over " + (try run.measureHandOver()))
    } catch {
      print("(\(kind), \(input), hand-over: \(error))")
    }
  }
  print(
    "budgets: switch ≤ 100 ms, gap ≤ 100 ms, CPU player ≤ 1.1 × output (daemon + server), "
      + "leak ≤ 0.05, hand-over ≤ 100 ms"
  )
}

/// Why the bench could not measure.
private struct PlayerBenchError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

/// One run: a server, a bus, the beeps and mpv (or with `handOver`, a steady tone and the fake
/// player's), and the daemon.
private final class PlayerBenchRun {
  let server: any PrivateAudioServer
  let bus: PrivateSessionBus
  let monitor: SignalMonitor
  let daemon: ChildProcess
  let configPath: String
  var children: [ChildProcess] = []
  let environment: [String: String]
  let lowBar: Int
  let beepBar: Int

  init(binary: String, kind: AudioServerKind, input: String, handOver: Bool = false) throws {
    server = try kind.start(sinks: ["pb_sink_a"])
    bus = try PrivateSessionBus(directory: server.directory)
    environment = server.environment.merging(bus.environment) { $1 }
    monitor = try SignalMonitor(address: bus.address)
    configPath = server.directory + "/pulsebar.conf"
    let layout = try BandLayout(
      barsPerChannel: 8, lowCutoff: 50, highCutoff: 10000,
      sizes: TransformSizes(sampleRate: 48000))
    lowBar = layout.bands.firstIndex { $0.lowerHz <= 200 && 200 < $0.upperHz } ?? 0
    beepBar = layout.bands.firstIndex { $0.lowerHz <= 2000 && 2000 < $0.upperHz } ?? 0
    MPRISFixtures.writeScopeConfig("player", to: configPath)
    if handOver {
      // Bars that follow the analysis at once (no gravity fall-off, no integral smoothing), so
      // the first frame with the new source's audio shows as the bar's first move.
      let file = fopen(configPath, "a")
      fputs("[analysis]\nnoise_reduction = 0\n", file)
      fclose(file)
    }
    daemon = try ChildProcess(
      binary,
      ["run", "--input", input, "--format", "json", "--bars", "8", "--config", configPath],
      environment: environment)
    guard daemon.readLine(timeout: 10) != nil else {
      throw PlayerBenchError(message: "no first frame: \(daemon.standardError)")
    }
    if handOver {
      children.append(try server.play(tone: 2000, seconds: 120))
      children.append(try Self.fakePlayer(in: server.directory, environment: environment))
      return
    }
    let beeps = try MPRISFixtures.beeps(in: server.directory, seconds: 120)
    children.append(try server.play(file: beeps))
    let track = try MPRISFixtures.taggedTrack(
      in: server.directory, "tone", title: "Tone", hertz: 200)
    children.append(
      try MPRISFixtures.mpv(
        Array(repeating: track, count: 8), paused: false, environment: environment))
  }

  deinit {
    for child in children { child.send(SIGKILL) }
    daemon.send(SIGTERM)
    _ = try? daemon.waitForExit(timeout: 5)
    bus.stop()
    server.stop()
  }

  /// The next line whose source satisfies `predicate`, when it arrived (seconds since the
  /// epoch), and the longest wait between two lines on the way.
  func arrival(timeout: Double = 5, _ predicate: (String, [Double]) -> Bool) -> (
    at: Double, gap: Double
  )? {
    let deadline = ChildProcess.now() + timeout
    var last = MPRISFixtures.realtimeSeconds()
    var gap = 0.0
    while let line = daemon.readLine(timeout: max(0, deadline - ChildProcess.now())) {
      let now = MPRISFixtures.realtimeSeconds()
      gap = max(gap, now - last)
      last = now
      let frame = PlayerBenchFrame(line)
      if predicate(frame.source, frame.bars) { return (now, gap) }
    }
    return nil
  }

  func control(_ action: String) -> Bool {
    guard let binary = BenchTools.pulsebarBinary(),
      let process = try? ChildProcess(binary, ["ctl", action], environment: environment)
    else { return false }
    return (try? process.waitForExit(timeout: 10)) == 0
  }

  /// The highest level of `bar` over `seconds` of lines.
  func highest(_ bar: Int, seconds: Double) -> Double {
    daemon.readLines(for: seconds).map { PlayerBenchFrame($0).bars }
      .compactMap { $0.dropFirst(bar).first }.max() ?? 0
  }

  /// CPU of the daemon and of the server, percent of a core, over `seconds`.
  func cpu(seconds: Double) -> (daemon: Double, server: Double) {
    let servers = server.serverProcesses.map(\.pid)
    func total(_ pids: [pid_t]) -> Double {
      pids.reduce(0) { $0 + ProcessFigures.scheduledSeconds($1) }
    }
    let before = (total([daemon.pid]), total(servers))
    let start = BenchTools.wallSeconds()
    _ = daemon.readLines(for: seconds)
    let elapsed = BenchTools.wallSeconds() - start
    return (
      100 * (total([daemon.pid]) - before.0) / elapsed, 100 * (total(servers) - before.1) / elapsed
    )
  }

  /// The row of figures: switch medians, the longest gap, CPU both ways, leakage both ways.
  func measure() throws -> String {
    guard arrival(timeout: 20, { source, _ in source.hasPrefix("mpv (") }) != nil,
      daemon.waitForLine(timeout: 10, where: { $0.contains("\"state\":\"playing\"") }) != nil
    else {
      throw PlayerBenchError(message: "mpv's stream was never recorded")
    }
    // Past the rest heights' crossfade into the live bars.
    _ = daemon.readLines(for: 1)
    let leakPlayer = highest(beepBar, seconds: 5)
    var toOutput: [Double] = []
    var toPlayer: [Double] = []
    var toPlayerNamed: [Double] = []
    var gap = 0.0
    for _ in 0..<10 {
      guard control("pause"), let sent = monitor.timeOfSignal(containing: "Paused"),
        let output = arrival({ source, _ in !source.hasPrefix("mpv (") })
      else { continue }
      toOutput.append(output.at - sent)
      gap = max(gap, output.gap)
      _ = daemon.readLines(for: 0.4)
      guard control("play"), let resumed = monitor.timeOfSignal(containing: "Playing"),
        let named = arrival({ source, _ in source.hasPrefix("mpv (") }),
        let player = arrival({ _, bars in (bars.dropFirst(lowBar).first ?? 0) >= 0.5 })
      else { continue }
      toPlayerNamed.append(named.at - resumed)
      toPlayer.append(player.at - resumed)
      gap = max(gap, named.gap, player.gap)
      _ = daemon.readLines(for: 0.4)
    }
    // CPU with mpv alone: the beeps stop. Three rounds of 5 s with each scope, alternating
    // (the config reloaded in place), so a slow drift of the server's share hits both alike.
    children[0].send(SIGKILL)
    var cpuPlayer = (daemon: 0.0, server: 0.0)
    var cpuOutput = (daemon: 0.0, server: 0.0)
    for round in 0..<6 {
      let scope = round % 2 == 0 ? "player" : "output"
      MPRISFixtures.writeScopeConfig(scope, to: configPath)
      daemon.send(SIGHUP)
      _ = daemon.readLines(for: 2)
      let figures = cpu(seconds: 5)
      if scope == "player" {
        cpuPlayer = (cpuPlayer.daemon + figures.daemon / 3, cpuPlayer.server + figures.server / 3)
      } else {
        cpuOutput = (cpuOutput.daemon + figures.daemon / 3, cpuOutput.server + figures.server / 3)
      }
    }
    // Leakage with output: the beeps again.
    children.append(try server.play(file: server.directory + "/beeps.wav"))
    _ = daemon.readLines(for: 1)
    let leakOutput = highest(beepBar, seconds: 5)
    func median(_ values: [Double]) -> String {
      values.isEmpty ? "-" : fmt(1000 * values.sorted()[values.count / 2], 0)
    }
    func worst(_ values: [Double]) -> String { fmt(1000 * (values.max() ?? .nan), 0) }
    return pad("\(median(toOutput)) (\(worst(toOutput)))", 14)
      + pad("\(median(toPlayerNamed)) (\(worst(toPlayerNamed)))", 14)
      + pad("\(median(toPlayer)) (\(worst(toPlayer)))", 14) + pad(fmt(1000 * gap, 0), 8)
      + pad(fmt(cpuPlayer.daemon, 2) + "+" + fmt(cpuPlayer.server, 2), 12)
      + pad(fmt(cpuOutput.daemon, 2) + "+" + fmt(cpuOutput.server, 2), 12)
      + pad(
        fmt((cpuPlayer.daemon + cpuPlayer.server) / (cpuOutput.daemon + cpuOutput.server), 2), 6)
      + pad(fmt(leakPlayer, 3), 13) + fmt(leakOutput, 3)
  }
}

extension PlayerBenchRun {
  /// A fake MPRIS player whose child plays a 200 Hz tone whatever the status it is told on
  /// stdin (`status Paused`, `status Playing`), asking 60 ms of latency as a desktop player
  /// does: with paplay's default (2 s) pipewire-pulse gives the new capture stream on that
  /// sink input its first audio only with the next large chunk (to player 115 to 760 ms median
  /// in three runs, against about 95 at 60 ms).
  static func fakePlayer(in directory: String, environment: [String: String]) throws
    -> ChildProcess
  {
    let tone = directory + "/player-tone.wav"
    let sox = try ChildProcess(
      "sox",
      [
        "-n", "-r", "48000", "-c", "2", "-b", "16", tone, "synth", "120", "sine", "200", "vol",
        "0.5",
      ])
    guard try sox.waitForExit(timeout: 60) == 0 else {
      throw PlayerBenchError(message: "sox: \(sox.standardError)")
    }
    return try ChildProcess(
      "/usr/bin/python3",
      [
        "Tests/Fixtures/fake-mpris-player.py", "--name", "fake", "--play", tone,
        "--keep-playing", "--commands",
      ], environment: environment.merging(["PULSE_LATENCY_MSEC": "60"]) { $1 }, stdin: true)
  }

  /// The hand-over both ways, 10 times each: from the player's `PlaybackStatus` signal to the
  /// first line whose 2000 Hz bar (the output's alone) moves from where it stood; median and
  /// worst of each.
  func measureHandOver() throws -> String {
    // The 2000 Hz bar of the last line written (a line the same as the one before is not).
    var last = 0.0
    guard
      arrival(
        timeout: 20,
        { source, bars in
          last = bars.dropFirst(beepBar).first ?? last
          return source.hasPrefix("fake (")
        }) != nil
    else {
      throw PlayerBenchError(message: "the player's stream was never recorded")
    }
    // Past the rest heights' crossfade into the live bars.
    guard daemon.waitForLine(timeout: 10, where: { $0.contains("\"state\":\"playing\"") }) != nil
    else {
      throw PlayerBenchError(message: "the daemon never said playing")
    }
    _ = daemon.readLines(for: 1)
    var toOutput: [Double] = []
    var toPlayer: [Double] = []
    for _ in 0..<10 {
      for status in ["Paused", "Playing"] {
        // From a settled picture: the bar steady, its fall-off or rise done.
        for line in daemon.readLines(for: 0.6) {
          last = PlayerBenchFrame(line).bars.dropFirst(beepBar).first ?? last
        }
        let settled = last
        children[1].writeToStdin("status \(status)\n")
        guard let sent = monitor.timeOfSignal(containing: status),
          let shown = arrival({ _, bars in
            last = bars.dropFirst(beepBar).first ?? last
            return abs(last - settled) >= 0.02
          })
        else {
          throw PlayerBenchError(message: "no new source's audio within 5 s of \(status)")
        }
        if status == "Paused" {
          toOutput.append(shown.at - sent)
        } else {
          toPlayer.append(shown.at - sent)
        }
      }
    }
    func figures(_ values: [Double]) -> String {
      let sorted = values.sorted()
      return "\(fmt(1000 * sorted[sorted.count / 2], 0)) ms (worst \(fmt(1000 * sorted.last!, 0)))"
    }
    return "to output \(figures(toOutput)), to player \(figures(toPlayer))"
  }
}

/// The fields of a json line the bench reads.
private struct PlayerBenchFrame {
  var source = ""
  var bars: [Double] = []

  init(_ line: String) {
    if let range = line.firstRange(of: "\"source\":\"") {
      source = String(line[range.upperBound...].prefix { $0 != "\"" })
    }
    if let range = line.firstRange(of: "\"bars\":[") {
      let rest = line[range.upperBound...]
      bars = rest.prefix { $0 != "]" }.split(separator: ",").compactMap { Double($0) }
    }
  }
}

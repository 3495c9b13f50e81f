import Glibc
import PulseBarTestSupport

/// `pulsebar-bench cava`: pulsebar side by side with Debian's `cava`, one after
/// the other in one run, on the same audio through the same private PulseAudio
/// null sink, at cava's settings (32 bars, stereo, 60 fps, raw ASCII, max 1000).
///
/// For each tool: CPU while music loops, CPU and lines written while nothing
/// plays, onset latency over tone bursts, peak RSS, and the server's own CPU
/// in the same windows (a smaller fragment must not just move cost into it).
func runCavaBench() {
  let chosen = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : nil
  CavaBench.withServer(pulsebar: chosen) { bench, pulsebar in
    let cava = bench.measureCava()
    let ours = bench.measure(name: "pulsebar", pulsebar, CavaBench.pulsebarArguments)
    if let cava, let ours { bench.printTable(cava: cava, pulsebar: ours) }
  }
}

extension CavaBench {
  /// pulsebar at cava's settings (32 bars, stereo, 60 fps, raw ASCII) on PulseAudio.
  static let pulsebarArguments = [
    "run", "--input", "pulse", "--bars", "32", "--channels", "stereo", "--fps", "60",
    "--format", "raw",
  ]

  /// Starts a private server of `kind` (an idle sink suspends, as on a desktop), writes the
  /// bench audio and runs `body` with the bench and the pulsebar binary: `chosen`, else the
  /// release build, else the debug one. Says why and returns when cava, the binary, the server
  /// or sox is missing.
  static func withServer(
    _ kind: AudioServerKind = .pulseaudio, pulsebar chosen: String?,
    _ body: (CavaBench, String) -> Void
  ) {
    guard access(cavaPath, X_OK) == 0 else {
      print("cava is not installed (apt-get install cava); skipped")
      return
    }
    guard let pulsebar = chosen ?? BenchTools.pulsebarBinary() else {
      print("no pulsebar binary: run `swift build` (or -c release) first")
      return
    }
    if let reason = kind.missingReason {
      print("\(reason); skipped")
      return
    }
    let server: any PrivateAudioServer
    do {
      server = try kind.start(suspendOnIdle: true)
    } catch {
      print("cannot start a private \(kind) server: \(error)")
      return
    }
    defer { server.stop() }
    let bench = CavaBench(server: server)
    guard bench.prepareAudio() else {
      print("cannot synthesize the bench audio with sox")
      return
    }
    print("private \(kind) server \(server.serverAddress), sink \(sink); pulsebar \(pulsebar)")
    body(bench, pulsebar)
  }

  /// cava with the bench's config (recording the null sink's monitor through its pulse
  /// input); `input` says so in the report.
  func measureCava(input: String = "pulse") -> ToolFigures? {
    measure(
      name: "cava", Self.cavaPath,
      [
        "-p",
        BenchTools.writeCavaConfig(source: "\(Self.sink).monitor", directory: server.directory),
      ], input: "\(input), \(Self.sink).monitor")
  }
}

/// CPU of a tool and of the server over one window, in percent of one core, and lines written.
struct WindowFigures {
  /// From `/proc/<pid>/stat` utime + stime (clock ticks); `server` adds up its processes.
  var tool = 0.0
  var server = 0.0
  /// From `/proc/<pid>/task/*/schedstat` (nanoseconds on a CPU); `serverExact` adds up
  /// `serverParts`.
  var toolExact = 0.0
  var serverExact = 0.0
  /// Each server process apart, exactly (PipeWire: pipewire, wireplumber, pipewire-pulse).
  var serverParts: [(name: String, percent: Double)] = []
  var linesPerSecond = 0.0
  /// Times per second the tool's threads were put on a CPU (its wake-ups).
  var toolWakeups = 0.0
}

/// What one tool cost and how fast it reacted.
struct ToolFigures {
  var name: String
  /// What the tool recorded from, as it said so (pulsebar's `-v` line), or as configured.
  var input = ""
  var playing = WindowFigures()
  var idle = WindowFigures()
  /// Seconds from the burst's `paplay` spawn to the first line with a bar at half range.
  var onsets: [Double] = []
  var peakRSSKilobytes = 0
  /// Memory while music plays, from `/proc/<pid>/smaps_rollup`.
  var memory = MemoryFigures()
  /// The PipeWire graph's period while the tool records, with music and without; `nil` on
  /// PulseAudio, or when the graph did not run (everything suspended).
  var quantumPlaying: QuantumRange?
  var quantumIdle: QuantumRange?

  var onsetMedian: Double {
    let sorted = onsets.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
  }
}

/// The bench's audio, its windows and its measurements, on one private server.
struct CavaBench {
  static let cavaPath = "/usr/bin/cava"
  static let sink = "pb_sink_a"
  static let bursts = 7

  let server: any PrivateAudioServer
  /// How long CPU and lines are counted while music plays, and while nothing does.
  var playingSeconds = 20.0
  var idleSeconds = 20.0
  var musicPath: String { server.directory + "/music.wav" }
  var burstPath: String { server.directory + "/burst.wav" }

  /// 20 s of chords with drum-like noise bursts, and a 0.6 s 1 kHz burst, as WAV files.
  func prepareAudio() -> Bool {
    BenchTools.writeWAV(
      BenchSignals.music(seconds: 20, sampleRate: 44100), sampleRate: 44100, to: musicPath)
      && BenchTools.shell(
        "sox -n -r 44100 -c 2 -b 16 \(burstPath) synth 0.6 sine 1000 vol 0.5")
  }

  /// The music, looped into the bench sink until the returned process group is killed.
  func playMusic() -> ChildProcess? {
    try? ChildProcess(
      "sh", ["-c", "while :; do paplay -d \(Self.sink) \(musicPath) || exit; done"],
      environment: server.environment)
  }

  /// Runs one tool through warm-up, music, idle and bursts; nil if it would not start.
  /// `input` names what the tool records; `nil` takes it from the tool's first `-v` line
  /// that says what it records.
  func measure(
    name: String, _ executable: String, _ arguments: [String], input: String? = nil
  ) -> ToolFigures? {
    var environment = server.environment
    environment["TERM"] = "dumb"
    guard let tool = try? ChildProcess(executable, arguments, environment: environment) else {
      print("\(name): cannot start \(executable)")
      return nil
    }
    defer {
      tool.send(SIGTERM)
      _ = try? tool.waitForExit(timeout: 5)
    }
    var figures = ToolFigures(name: name)
    // Warm-up: the idle null sink's 2 s render-ahead block passes before anything is timed.
    _ = tool.readLines(for: 3)
    guard tool.isRunning else {
      print("\(name) exited: \(tool.standardError)")
      return nil
    }
    figures.input = input ?? Self.recordingLine(tool.standardError)

    // Music, looped.
    guard let player = playMusic() else { return nil }
    _ = tool.readLines(for: 1)
    figures.playing = window(tool, seconds: playingSeconds)
    figures.memory = ProcessFigures.memory(tool.pid)
    figures.quantumPlaying = QuantumRange.sample(server, while: tool)
    kill(-player.pid, SIGKILL)
    _ = try? player.waitForExit(timeout: 5)

    // Idle: let the resting frame (and any bubbles, 4 s) out first.
    _ = tool.readLines(for: 6)
    figures.idle = window(tool, seconds: idleSeconds)
    figures.quantumIdle = QuantumRange.sample(server, while: tool)

    for _ in 0..<Self.bursts {
      if let onset = onsetLatency(tool) { figures.onsets.append(onset) }
    }
    figures.peakRSSKilobytes = ProcessFigures.peakRSSKilobytes(tool.pid)
    return figures
  }

  /// The first `-v` line that says what is recorded, without the `pulsebar: ` prefix.
  private static func recordingLine(_ log: String) -> String {
    let lines = log.split(separator: "\n")
    let line = lines.first { $0.contains("recording") } ?? lines.first ?? "(no -v line)"
    return line.hasPrefix("pulsebar: ") ? String(line.dropFirst(10)) : String(line)
  }

  /// CPU of the tool and of every server process over `seconds`, and the lines written.
  private func window(_ tool: ChildProcess, seconds: Double) -> WindowFigures {
    let processes = server.serverProcesses
    func sample() -> [Double] {
      [ProcessFigures.cpuSeconds(tool.pid), ProcessFigures.scheduledSeconds(tool.pid)]
        + processes.flatMap {
          [ProcessFigures.cpuSeconds($0.pid), ProcessFigures.scheduledSeconds($0.pid)]
        }
    }
    let start = BenchTools.wallSeconds()
    let before = sample()
    let runsBefore = ProcessFigures.schedule(tool.pid).runs
    let lines = tool.readLines(for: seconds).count
    let after = sample()
    let runsAfter = ProcessFigures.schedule(tool.pid).runs
    let elapsed = BenchTools.wallSeconds() - start
    let percent = zip(after, before).map { 100 * ($0 - $1) / elapsed }
    var figures = WindowFigures(
      tool: percent[0], toolExact: percent[1], linesPerSecond: Double(lines) / elapsed,
      toolWakeups: (runsAfter - runsBefore) / elapsed)
    for (index, process) in processes.enumerated() {
      figures.server += percent[2 + 2 * index]
      figures.serverExact += percent[3 + 2 * index]
      figures.serverParts.append((process.name, percent[3 + 2 * index]))
    }
    return figures
  }
  /// Waits until the tool is quiet, spawns a burst and times the first line with a bar
  /// at half range that differs from the resting line.
  ///
  /// The clock starts just before `paplay` is spawned and stops when this process reads
  /// the line: it includes paplay's start-up and connection, the server's mixing and
  /// monitor delivery, the tool's fragment, analysis and smoothing, and the pipe.
  private func onsetLatency(_ tool: ChildProcess) -> Double? {
    var resting = ""
    var quietSince = BenchTools.wallSeconds()
    let deadline = quietSince + 15
    // Quiet: no line for 1 s (pulsebar), or 1 s of lines whose bars are all low (cava).
    while BenchTools.wallSeconds() - quietSince < 1, BenchTools.wallSeconds() < deadline {
      guard let line = tool.readLine(timeout: 1) else { break }
      if Self.highestBar(line) >= 100 { quietSince = BenchTools.wallSeconds() }
      resting = line
    }
    let start = BenchTools.wallSeconds()
    guard let burst = try? server.play(file: burstPath, sink: Self.sink) else { return nil }
    defer { _ = try? burst.waitForExit(timeout: 5) }
    let line = tool.waitForLine(timeout: 3) { $0 != resting && Self.highestBar($0) >= 500 }
    return line == nil ? nil : BenchTools.wallSeconds() - start
  }

  /// The highest value in a raw ASCII line (`v;v;…;`).
  static func highestBar(_ line: String) -> Int {
    line.split(separator: ";").compactMap { Int($0) }.max() ?? 0
  }
}

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
  CavaBench.withServer { bench, pulsebar in
    let cava = bench.measureCava()
    let ours = bench.measure(name: "pulsebar", pulsebar, CavaBench.pulsebarArguments)
    if let cava, let ours { CavaBench.printTable(cava: cava, pulsebar: ours) }
  }
}

extension CavaBench {
  /// pulsebar at cava's settings (32 bars, stereo, 60 fps, raw ASCII) on PulseAudio.
  static let pulsebarArguments = [
    "run", "--input", "pulse", "--bars", "32", "--channels", "stereo", "--fps", "60",
    "--format", "raw",
  ]

  /// Starts a private PulseAudio server (an idle sink suspends, as on a desktop), writes the
  /// bench audio and runs `body` with the bench and the pulsebar binary: the one named as
  /// `pulsebar-bench NAME [PULSEBAR]`, else the release build, else the debug one. Says why
  /// and returns when cava, the binary, the server or sox is missing.
  static func withServer(_ body: (CavaBench, String) -> Void) {
    guard access(cavaPath, X_OK) == 0 else {
      print("cava is not installed (apt-get install cava); skipped")
      return
    }
    let chosen = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : nil
    guard let pulsebar = chosen ?? BenchTools.pulsebarBinary() else {
      print("no pulsebar binary: run `swift build` (or -c release) first")
      return
    }
    let server: PrivatePulseServer
    do {
      server = try PrivatePulseServer(suspendOnIdle: true)
    } catch {
      print("cannot start a private PulseAudio server: \(error)")
      return
    }
    defer { server.stop() }
    let bench = CavaBench(server: server)
    guard bench.prepareAudio() else {
      print("cannot synthesize the bench audio with sox")
      return
    }
    print("private server \(server.serverAddress), sink \(sink); pulsebar \(pulsebar)")
    body(bench, pulsebar)
  }

  /// cava with the bench's config (recording the null sink's monitor).
  func measureCava() -> ToolFigures? {
    measure(
      name: "cava", Self.cavaPath,
      [
        "-p",
        BenchTools.writeCavaConfig(source: "\(Self.sink).monitor", directory: server.directory),
      ])
  }
}

/// CPU of a tool and of the server over one window, in percent of one core, and lines written.
struct WindowFigures {
  /// From `/proc/<pid>/stat` utime + stime (clock ticks).
  var tool = 0.0
  var server = 0.0
  /// From `/proc/<pid>/task/*/schedstat` (nanoseconds on a CPU).
  var toolExact = 0.0
  var serverExact = 0.0
  var linesPerSecond = 0.0
}

/// What one tool cost and how fast it reacted.
struct ToolFigures {
  var name: String
  var playing = WindowFigures()
  var idle = WindowFigures()
  /// Seconds from the burst's `paplay` spawn to the first line with a bar at half range.
  var onsets: [Double] = []
  var peakRSSKilobytes = 0
  /// Memory while music plays, from `/proc/<pid>/smaps_rollup`.
  var memory = MemoryFigures()

  var onsetMedian: Double {
    let sorted = onsets.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
  }
}

/// The bench's audio, its windows and its measurements.
struct CavaBench {
  static let cavaPath = "/usr/bin/cava"
  static let sink = "pb_sink_a"
  static let playingSeconds = 20.0
  static let idleSeconds = 20.0
  static let bursts = 7

  let server: PrivatePulseServer
  var musicPath: String { server.directory + "/music.wav" }
  var burstPath: String { server.directory + "/burst.wav" }

  /// 20 s of chords with drum-like noise bursts, and a 0.6 s 1 kHz burst, as WAV files.
  func prepareAudio() -> Bool {
    BenchTools.writeWAV(
      BenchSignals.music(seconds: 20, sampleRate: 44100), sampleRate: 44100, to: musicPath)
      && BenchTools.shell(
        "sox -n -r 44100 -c 2 -b 16 \(burstPath) synth 0.6 sine 1000 vol 0.5")
  }

  /// Runs one tool through warm-up, music, idle and bursts; nil if it would not start.
  func measure(name: String, _ executable: String, _ arguments: [String]) -> ToolFigures? {
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

    // Music, looped.
    guard
      let player = try? ChildProcess(
        "sh", ["-c", "while :; do paplay -d \(Self.sink) \(musicPath) || exit; done"],
        environment: server.environment)
    else { return nil }
    _ = tool.readLines(for: 1)
    figures.playing = window(tool, seconds: Self.playingSeconds)
    figures.memory = ProcessFigures.memory(tool.pid)
    kill(-player.pid, SIGKILL)
    _ = try? player.waitForExit(timeout: 5)

    // Idle: let the resting frame (and any bubbles, 4 s) out first.
    _ = tool.readLines(for: 6)
    figures.idle = window(tool, seconds: Self.idleSeconds)

    for _ in 0..<Self.bursts {
      if let onset = onsetLatency(tool) { figures.onsets.append(onset) }
    }
    figures.peakRSSKilobytes = ProcessFigures.peakRSSKilobytes(tool.pid)
    return figures
  }

  /// CPU of the tool and of the server over `seconds`, and the lines written.
  private func window(_ tool: ChildProcess, seconds: Double) -> WindowFigures {
    func sample() -> [Double] {
      [
        ProcessFigures.cpuSeconds(tool.pid), ProcessFigures.cpuSeconds(server.serverPid),
        ProcessFigures.scheduledSeconds(tool.pid),
        ProcessFigures.scheduledSeconds(server.serverPid),
      ]
    }
    let start = BenchTools.wallSeconds()
    let before = sample()
    let lines = tool.readLines(for: seconds).count
    let after = sample()
    let elapsed = BenchTools.wallSeconds() - start
    let percent = zip(after, before).map { 100 * ($0 - $1) / elapsed }
    return WindowFigures(
      tool: percent[0], server: percent[1], toolExact: percent[2], serverExact: percent[3],
      linesPerSecond: Double(lines) / elapsed)
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

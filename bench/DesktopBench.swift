import Glibc
import PulseBarTestSupport

/// `pulsebar-bench desktop [pulse|pipewire] [PULSEBAR [BEFORE]]`: what the whole desktop
/// pays, side by side with cava in one run (docs/DESIGN.md, "Budgets"), under a private PulseAudio
/// server and then under a private PipeWire session (pipewire + wireplumber +
/// pipewire-pulse), or under the one named. For each server, cava and pulsebar one after the
/// other on the same music: tool CPU, the server's CPU (each PipeWire process apart) and
/// their sum while music plays; the PipeWire period each tool caused; idle CPU and lines;
/// onset latency on the live bars; USS, PSS and RSS while playing. Then the Waybar setup as
/// users run it (``WaybarSetupBench``).
///
/// pulsebar runs with its default input (`auto`), and the table says what that picked.
/// `BEFORE`, another pulsebar binary, adds a column to compare a change against.
func runDesktopBench() {
  DesktopBench.forEachServer { bench, pulsebar, rest in
    DesktopBench(bench: bench).run(pulsebar: pulsebar, before: rest.dropFirst().first)
  }
}

/// `pulsebar-bench waybar-setup [pulse|pipewire] [PULSEBAR [BEFORE]]`: only the last part of
/// `desktop`, the Waybar setup beside cava | sed (``WaybarSetupBench``), on each server or on
/// the one named; `BEFORE`, another pulsebar binary, adds its row.
func runWaybarSetupBench() {
  DesktopBench.forEachServer { bench, pulsebar, rest in
    WaybarSetupBench(bench: bench).run(pulsebar: pulsebar, before: rest.dropFirst().first)
  }
}

/// One server's half of the desktop bench.
struct DesktopBench {
  /// `pulsebar-bench desktop NAME` runs one server only.
  static let serverNames: [String: AudioServerKind] = [
    "pulse": .pulseaudio, "pulseaudio": .pulseaudio, "pipewire": .pipewire,
  ]

  /// pulsebar at cava's settings (32 bars, stereo, 60 fps, raw ASCII) with its default input;
  /// `-v` says which input `auto` picked.
  static let pulsebarArguments = [
    "run", "-v", "--bars", "32", "--channels", "stereo", "--fps", "60", "--format", "raw",
  ]

  /// Runs `body` under each server, or the one the first argument names, with the pulsebar
  /// binary the next argument names (or the built one) and the arguments after the server's
  /// name.
  static func forEachServer(_ body: (CavaBench, String, [String]) -> Void) {
    var rest = Array(CommandLine.arguments.dropFirst(2))
    var kinds = AudioServerKind.allCases
    if let first = rest.first, let kind = serverNames[first] {
      kinds = [kind]
      rest.removeFirst()
    }
    for kind in kinds {
      print("-- \(title(kind))")
      CavaBench.withServer(kind, pulsebar: rest.first) { bench, pulsebar in
        body(bench, pulsebar, rest)
      }
      print()
    }
  }

  var bench: CavaBench

  /// Shorter windows than the cava bench's, so both servers fit in about four minutes.
  init(bench: CavaBench) {
    self.bench = bench
    self.bench.playingSeconds = 15
    self.bench.idleSeconds = 10
  }

  static func title(_ kind: AudioServerKind) -> String {
    switch kind {
    case .pulseaudio: "PulseAudio (private pulseaudio, null sink)"
    case .pipewire: "PipeWire (private pipewire + wireplumber + pipewire-pulse, null sink)"
    }
  }

  /// Measures cava (and cava's own PipeWire input where it has one), pulsebar and `before`,
  /// and prints the table and the verdicts.
  func run(pulsebar: String, before: String?) {
    let server = bench.server
    var report = DesktopReport(
      kind: server.kind, playingSeconds: bench.playingSeconds, idleSeconds: bench.idleSeconds,
      settings: QuantumRange.settings(server))
    if server.kind == .pipewire { report.quantumPlayerAlone = playerAloneQuantum() }
    guard
      let cava = bench.measureCava(
        input: server.kind == .pipewire ? "pulse via pipewire-pulse" : "pulse")
    else { return }
    report.tools = [cava]
    if server.kind == .pipewire {
      if let reason = cavaPipeWireMissing() {
        report.notes.append("cava's own `method = pipewire`: not measured, \(reason)")
      } else if let native = cavaPipeWire() {
        report.tools.append(native)
      }
    }
    guard let ours = bench.measure(name: "pulsebar", pulsebar, Self.pulsebarArguments) else {
      return
    }
    report.tools.append(ours)
    if let before, let previous = bench.measure(name: "before", before, Self.pulsebarArguments) {
      report.tools.append(previous)
    }
    report.print()
    print()
    WaybarSetupBench(bench: bench).run(pulsebar: pulsebar, before: before)
  }

  /// The quantum with only the music player in the graph, before any tool records.
  private func playerAloneQuantum() -> QuantumRange? {
    guard let player = bench.playMusic() else { return nil }
    defer {
      kill(-player.pid, SIGKILL)
      _ = try? player.waitForExit(timeout: 5)
    }
    _ = player.readLines(for: 1)
    return QuantumRange.sample(bench.server, while: player)
  }

  /// Why this cava cannot record through `method = pipewire` (it exits at once, naming the
  /// methods it has), or `nil` when it can.
  private func cavaPipeWireMissing() -> String? {
    let config = BenchTools.writeCavaConfig(
      source: "auto", directory: bench.server.directory, method: "pipewire")
    guard
      let cava = try? ChildProcess(
        CavaBench.cavaPath, ["-p", config], environment: bench.server.environment)
    else { return "cava would not start" }
    guard (try? cava.waitForExit(timeout: 2)) != nil else {
      cava.send(SIGTERM)
      _ = try? cava.waitForExit(timeout: 5)
      return nil
    }
    let said = cava.readLines(for: 0.1).joined(separator: " ") + cava.standardError
    let version = BenchTools.packageVersion("cava").map { "cava \($0) says: " } ?? ""
    let message = said.split(separator: "\u{7}").last.map(String.init) ?? said
    return version
      + message.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
  }

  /// cava with its native PipeWire input, recording the default sink's monitor.
  private func cavaPipeWire() -> ToolFigures? {
    let config = BenchTools.writeCavaConfig(
      source: "auto", directory: bench.server.directory, method: "pipewire")
    return bench.measure(
      name: "cava-pw", CavaBench.cavaPath, ["-p", config], input: "pipewire (cava's own)")
  }
}

import Glibc
import PulseBarTestSupport

/// The Waybar setup as users run it, side by side with what they would run instead, on the
/// same music in one run (part of `pulsebar-bench desktop`, on each server):
/// - the daemon with its defaults (8 bars) and the shipped snippet's client,
///   `pulsebar listen --format waybar --fps 30`;
/// - the same with a client at the daemon's 60 lines a second (what the daemon analysed for
///   any client before it followed its clients' rate);
/// - `cava` at 8 bars and `framerate = 30`, raw ASCII digits, piped through `sed` to glyphs.
///
/// Each figure is the CPU of the whole process tree (daemon + listen, cava + sed) and of the
/// audio server's processes, in percent of one core, exactly, from the threads' `schedstat`;
/// "first" is the daemon alone (or the shell that runs cava | sed); "wakes/s" its first
/// thread's voluntary context switches a second (the daemon's engine; the shell sleeps); on
/// PipeWire, "quantum" is the graph's period while that setup ran (sampled after its figures).
struct WaybarSetupBench {
  let bench: CavaBench
  var seconds = 12.0
  /// How long the music plays before the first row.
  static let settleSeconds = 6.0

  /// CPU (first process, tree, server) and the first thread's wake-ups a second of one setup
  /// over ``seconds`` of music, after a 3 s warm-up.
  private func measure(_ tree: [ChildProcess], reader: ChildProcess) -> Row {
    _ = reader.readLines(for: 3)
    let servers = bench.server.serverProcesses.map(\.pid)
    func cpu(_ pids: [pid_t]) -> Double {
      pids.reduce(0) { $0 + ProcessFigures.scheduledSeconds($1) }
    }
    let treePids = tree.flatMap { [$0.pid] + Self.children(of: $0.pid) }
    func wakes() -> Int { MPRISFixtures.voluntarySwitches(ofThread: treePids[0], in: treePids[0]) }
    let before = (cpu([treePids[0]]), cpu(treePids), cpu(servers), wakes())
    let start = BenchTools.wallSeconds()
    _ = reader.readLines(for: seconds)
    let elapsed = BenchTools.wallSeconds() - start
    let quantum = QuantumRange.sample(bench.server, while: tree[0])
    return Row(
      name: "", first: 100 * (cpu([treePids[0]]) - before.0) / elapsed,
      tree: 100 * (cpu(treePids) - before.1) / elapsed,
      server: 100 * (cpu(servers) - before.2) / elapsed,
      wakes: Double(wakes() - before.3) / elapsed, quantum: quantum?.description ?? "-")
  }

  /// The direct children of `pid` (a shell's pipeline).
  private static func children(of pid: pid_t) -> [pid_t] {
    let text = ProcessFigures.read("/proc/\(pid)/task/\(pid)/children") ?? ""
    return text.split(separator: " ").compactMap { pid_t($0) }
  }

  /// The daemon at `pulsebar` with a `listen --format waybar` client at each of `rates`, one
  /// after the other: a row each, named `name + listen --fps N`.
  private func measureDaemon(_ pulsebar: String, name: String, rates: [String]) -> [Row] {
    var environment = bench.server.environment
    environment["XDG_CONFIG_HOME"] = bench.server.directory  // defaults, whatever the user has
    let socket = bench.server.directory + "/waybar-setup.sock"
    guard
      let daemon = try? ChildProcess(
        pulsebar, ["run", "--socket", socket, "--no-stdout"], environment: environment)
    else { return [] }
    defer {
      daemon.send(SIGTERM)
      _ = try? daemon.waitForExit(timeout: 5)
    }
    var rows: [Row] = []
    for fps in rates {
      guard
        let listen = try? ChildProcess(
          pulsebar, ["listen", "--socket", socket, "--format", "waybar", "--fps", fps],
          environment: environment)
      else { continue }
      var row = measure([daemon, listen], reader: listen)
      row.name = "\(name) + listen --fps \(fps)"
      rows.append(row)
      listen.send(SIGTERM)
      _ = try? listen.waitForExit(timeout: 5)
    }
    return rows
  }

  /// One setup's figures.
  private struct Row {
    var name: String
    var first, tree, server, wakes: Double
    var quantum: String
  }

  /// Plays the music and prints the setups' figures and the verdicts; `before`, another
  /// pulsebar binary, adds its `--fps 30` row to compare a change against.
  func run(pulsebar: String, before: String? = nil) {
    guard let player = bench.playMusic() else { return }
    defer {
      kill(-player.pid, SIGKILL)
      _ = try? player.waitForExit(timeout: 5)
    }
    // PULSEBAR_BENCH_QUANTUM=N forces the PipeWire graph's period to N frames (the engine's
    // wake-ups depend on it).
    if bench.server.kind == .pipewire, let quantum = getenv("PULSEBAR_BENCH_QUANTUM") {
      _ = try? bench.server.run(
        "pw-metadata", ["-n", "settings", "0", "clock.force-quantum", String(cString: quantum)])
    }
    // The server settles first (the player's stream linked, the graph's quantum chosen):
    // measured at once, the first row would pay for the settling whichever binary it is
    // (bench/README.md, the Waybar setup).
    usleep(UInt32(Self.settleSeconds * 1_000_000))
    var rows = measureDaemon(pulsebar, name: "pulsebar", rates: ["30", "60"])
    if let before { rows += measureDaemon(before, name: "before", rates: ["30"]) }
    let config = BenchTools.writeCavaConfig(
      source: "\(CavaBench.sink).monitor", directory: bench.server.directory, bars: 8,
      framerate: 30, channels: "mono", maxRange: 7)
    let command =
      "exec cava -p \(config) | sed -u 's/;//g;s/0/▁/g;s/1/▂/g;s/2/▃/g;s/3/▄/g;s/4/▅/g;s/5/▆/g;s/6/▇/g;s/7/█/g'"
    if access(CavaBench.cavaPath, X_OK) == 0,
      let pipeline = try? ChildProcess(
        "sh", ["-c", command], environment: bench.server.environment)
    {
      var row = measure([pipeline], reader: pipeline)
      row.name = "cava (8 bars, 30 fps) | sed"
      rows.append(row)
      for child in Self.children(of: pipeline.pid) { kill(child, SIGTERM) }
      pipeline.send(SIGTERM)
      _ = try? pipeline.waitForExit(timeout: 5)
    }
    print("Waybar setup, \(fmt(seconds, 0)) s of music each (% of one core):")
    print(
      pad("", 34) + pad("first", 8) + pad("tree", 8) + pad("server", 8) + pad("total", 8)
        + pad("× cava", 8) + pad("wakes/s", 9) + "quantum")
    let cava = rows.first { $0.name.hasPrefix("cava") }
    for row in rows {
      let total = row.tree + row.server
      let ratio = cava.map { total / ($0.tree + $0.server) }
      print(
        pad(row.name, 34) + pad(fmt(row.first, 2), 8) + pad(fmt(row.tree, 2), 8)
          + pad(fmt(row.server, 2), 8)
          + pad(fmt(total, 2), 8) + pad(ratio.map { fmt($0, 2) } ?? "-", 8)
          + pad(fmt(row.wakes, 1), 9) + row.quantum)
    }
    if let cava, let ours = rows.first, ours.name.hasPrefix("pulsebar + listen --fps 30") {
      let ratio = (ours.tree + ours.server) / (cava.tree + cava.server)
      _ = verdict("Waybar setup ≤ 0.6 × cava, servers included", ratio <= 0.6, "\(fmt(ratio, 2))×")
    }
    if rows.count >= 2, rows[1].name.hasPrefix("pulsebar + listen --fps 60") {
      let ratio = rows[0].tree / rows[1].tree
      _ = verdict(
        "one fps=30 client ≤ 0.55 × one fps=60 client (daemon + listen)", ratio <= 0.55,
        "\(fmt(ratio, 2))×")
    }
  }
}

import Glibc
import PulseBarDaemon
import PulseBarTestSupport

/// The waybar bench: lines a second a waybar custom module receives while music plays, from
/// `pulsebar listen --format waybar --fps 30` (the shipped snippet), from the same at the
/// daemon's 60 fps, and from the cava + sed pipeline it replaces (cava's default 60 fps), all
/// on the same music in one private PulseAudio null sink. Also counts the lines that differ from
/// the previous one only in `percentage` (the budget: none under 5 points).
///
/// Waybar itself is not run: it is a GTK layer-shell client that needs a Wayland compositor,
/// and the only one at hand (sway) refuses to run as root and is not installed; waybar redraws
/// once per line, so its CPU follows these lines a second.
func runWaybarBench() {
  guard let binary = BenchTools.pulsebarBinary() else {
    print("(pulsebar binary not built; run `swift build -c release` first)")
    return
  }
  guard let server = try? PrivatePulseServer() else {
    print("(no private PulseAudio server)")
    return
  }
  defer { server.stop() }
  let cava = CavaBench(server: server)
  guard cava.prepareAudio(),
    let player = try? ChildProcess(
      "sh", ["-c", "while :; do paplay \(cava.musicPath) || exit; done"],
      environment: server.environment)
  else {
    print("(could not make or play the bench audio with sox and paplay)")
    return
  }
  defer { kill(-player.pid, SIGKILL) }
  var environment = server.environment
  environment["XDG_CONFIG_HOME"] = server.directory  // defaults, whatever the user has
  let socket = server.directory + "/pulsebar.sock"
  guard
    let daemon = try? ChildProcess(
      binary, ["run", "--input", "pulse", "--socket", socket, "--no-stdout"],
      environment: environment)
  else { return }
  defer { daemon.send(SIGTERM) }
  let seconds = 10.0
  print("binary: \(binary); \(fmt(seconds, 0)) s per figure, music looped into the default sink")
  print(pad("setup", 44) + pad("lines/s", 10) + "percentage-only lines")
  for (name, fps) in [("pulsebar listen --format waybar --fps 30", "30"), ("… at 60 fps", "")] {
    let arguments =
      ["listen", "--socket", socket, "--format", "waybar"] + (fps.isEmpty ? [] : ["--fps", fps])
    guard let listen = try? ChildProcess(binary, arguments, environment: environment) else {
      continue
    }
    _ = listen.readLines(for: 3)  // warm-up: the daemon's first frames, the sink's latency
    let lines = listen.readLines(for: seconds)
    listen.send(SIGTERM)
    _ = try? listen.waitForExit(timeout: 5)
    let small = lines.isEmpty ? 0 : percentageOnlyLines(lines, under: 5)
    let any = lines.isEmpty ? 0 : percentageOnlyLines(lines, under: 101)
    print(
      pad(name, 44) + pad(fmt(Double(lines.count) / seconds, 1), 10)
        + "\(any) (\(small) under 5 points) of \(lines.count)")
  }
  // What a waybar cava setup runs: cava's raw output turned into glyphs by sed.
  let config = BenchTools.writeCavaConfig(
    source: "pb_sink_a.monitor", directory: server.directory)
  let command =
    "exec cava -p \(config) | sed -u 's/;//g;s/0/▁/g;s/1/▂/g;s/2/▃/g;s/3/▄/g;s/4/▅/g;s/5/▆/g;s/6/▇/g;s/7/█/g'"
  if access(CavaBench.cavaPath, X_OK) == 0,
    let pipeline = try? ChildProcess("sh", ["-c", command], environment: server.environment)
  {
    _ = pipeline.readLines(for: 3)
    let count = pipeline.readLines(for: seconds).count
    // The shell's children (cava and sed) by pid, then the shell.
    if let children = ProcessFigures.read("/proc/\(pipeline.pid)/task/\(pipeline.pid)/children") {
      for child in children.split(separator: " ") {
        if let pid = Int32(child) { kill(pid, SIGTERM) }
      }
    }
    pipeline.send(SIGTERM)
    _ = try? pipeline.waitForExit(timeout: 5)
    print(pad("cava (60 fps) | sed", 44) + pad(fmt(Double(count) / seconds, 1), 10) + "-")
  } else {
    print("(cava is not installed: no cava + sed figure)")
  }
}

/// Lines whose only difference from the one before is `"percentage":N`, by less than `points`.
private func percentageOnlyLines(_ lines: [String], under points: Int) -> Int {
  func split(_ line: String) -> (rest: Substring, percentage: Int)? {
    guard let range = line.firstRange(of: "\"percentage\":") else { return nil }
    let digits = line[range.upperBound...].prefix { $0.isNumber }
    return (line[..<range.lowerBound], Int(digits) ?? 0)
  }
  var count = 0
  for (previous, line) in zip(lines, lines.dropFirst()) {
    guard let before = split(previous), let after = split(line), before.rest == after.rest
    else { continue }
    if abs(before.percentage - after.percentage) < points { count += 1 }
  }
  return count
}

import Glibc

/// `pulsebar-bench desktop [PULSEBAR [BEFORE]]`: what the whole desktop pays, side by side with
/// cava in one run (DESIGN "Budgets"): tool CPU, audio server CPU and their sum while music
/// plays; idle CPU and lines; onset latency on the live bars; PSS and USS while playing.
///
/// Under a private PulseAudio server only: the private PipeWire session (and with it the
/// PipeWire period each tool caused) waits for the session helper in PulseBarTestSupport.
/// `BEFORE`, another pulsebar binary, adds a column to compare a change against.
func runDesktopBench() {
  CavaBench.withServer { bench, pulsebar in
    let before = CommandLine.arguments.count > 3 ? CommandLine.arguments[3] : nil
    guard let cava = bench.measureCava(),
      let ours = bench.measure(name: "pulsebar", pulsebar, CavaBench.pulsebarArguments)
    else { return }
    let previous = before.flatMap {
      bench.measure(name: "before", $0, CavaBench.pulsebarArguments)
    }
    DesktopReport(cava: cava, pulsebar: ours, before: previous).print()
  }
  print(
    "PipeWire: not measured by this bench yet (PulseAudio only; the tests' PrivatePipeWireSession could drive it)"
  )
}

/// The desktop bench's table and budget verdicts.
struct DesktopReport {
  var cava: ToolFigures
  var pulsebar: ToolFigures
  var before: ToolFigures?

  func print() {
    let tools = [cava, pulsebar] + (before.map { [$0] } ?? [])
    Swift.print(pad("figure", 30) + tools.map { pad($0.name, 12) }.joined() + "pulsebar/cava")
    func row(_ name: String, _ decimals: Int, _ value: (ToolFigures) -> Double) {
      let theirs = value(cava)
      let ratio = theirs > 0 ? fmt(value(pulsebar) / theirs, 2) + "×" : "-"
      Swift.print(
        pad(name, 30) + tools.map { pad(fmt(value($0), decimals), 12) }.joined() + ratio)
    }
    row("playing: tool CPU (% core)", 2) { $0.playing.toolExact }
    row("playing: server CPU", 2) { $0.playing.serverExact }
    row("playing: tool + server", 2) { $0.playing.toolExact + $0.playing.serverExact }
    row("playing: lines/s", 1) { $0.playing.linesPerSecond }
    row("idle: tool CPU (% core)", 3) { $0.idle.toolExact }
    row("idle: server CPU", 3) { $0.idle.serverExact }
    row("idle: lines/s", 1) { $0.idle.linesPerSecond }
    row("onset latency, median (ms)", 0) { 1000 * $0.onsetMedian }
    row("USS (MB)", 2) { Double($0.memory.uss) / 1024 }
    for group in MappingGroup.allCases {
      row("  " + group.rawValue, 2) { Double($0.memory.groups[group] ?? 0) / 1024 }
    }
    row("PSS (MB)", 2) { Double($0.memory.pss) / 1024 }
    row("RSS (MB)", 2) { Double($0.memory.rss) / 1024 }
    for figures in tools {
      let onsets = figures.onsets.map { fmt(1000 * $0, 0) }.joined(separator: " ")
      Swift.print(
        "\(figures.name) onsets (ms, \(figures.onsets.count)/\(CavaBench.bursts)): \(onsets)")
    }
    Swift.print(
      "(CPU exactly from task schedstat over \(fmt(CavaBench.playingSeconds, 0)) s playing and "
        + "\(fmt(CavaBench.idleSeconds, 0)) s idle; memory from smaps_rollup at the end of "
        + "the music; onset = paplay spawn → first line with a bar ≥ 500)")
    Swift.print()
    let (ours, theirs) = (pulsebar.playing, cava.playing)
    verdict(
      "tool + server ≤ 0.6 × cava's",
      ours.toolExact + ours.serverExact <= 0.6 * (theirs.toolExact + theirs.serverExact))
    verdict("tool ≤ 0.4 × cava's", ours.toolExact <= 0.4 * theirs.toolExact)
    verdict(
      "idle: 0 % and no lines",
      pulsebar.idle.toolExact < 0.01 && pulsebar.idle.linesPerSecond == 0)
    verdict("USS ≤ cava's", pulsebar.memory.uss <= cava.memory.uss)
    verdict(
      "onset latency ≤ cava's",
      pulsebar.onsets.count >= 5 && cava.onsets.count >= 5
        && pulsebar.onsetMedian <= cava.onsetMedian)
  }

  private func verdict(_ budget: String, _ met: Bool) {
    Swift.print(pad(budget, 32) + (met ? "met" : "MISSED"))
  }
}

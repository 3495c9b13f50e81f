import PulseBarTestSupport

/// One server's table of the desktop bench and its budget verdicts (docs/DESIGN.md, "Budgets").
struct DesktopReport {
  var kind: AudioServerKind
  /// The CPU windows, in seconds.
  var playingSeconds: Double
  var idleSeconds: Double
  /// The session's default quantum and rate (PipeWire only).
  var settings: (quantum: Int, rate: Int)?
  /// The quantum with only the music player in the graph (PipeWire only).
  var quantumPlayerAlone: QuantumRange?
  /// cava first, then cava's own PipeWire input if measured, pulsebar, and `before`.
  var tools: [ToolFigures] = []
  /// Lines printed under the table.
  var notes: [String] = []

  private var cava: ToolFigures { tools[0] }
  private var pulsebar: ToolFigures { tools.first { $0.name == "pulsebar" } ?? tools[0] }

  func print() {
    Swift.print(pad("figure", 32) + tools.map { pad($0.name, 12) }.joined() + "pulsebar/cava")
    row("playing: tool CPU (% core)", 2) { $0.playing.toolExact }
    serverRows("playing", 2) { $0.playing }
    row("playing: tool + server", 2) { $0.playing.toolExact + $0.playing.serverExact }
    row("playing: lines/s", 1) { $0.playing.linesPerSecond }
    row("playing: tool wake-ups/s", 0) { $0.playing.toolWakeups }
    if kind == .pipewire {
      textRow("playing: PipeWire quantum") { $0.quantumPlaying?.description ?? "none" }
    }
    row("idle: tool CPU (% core)", 3) { $0.idle.toolExact }
    serverRows("idle", 3) { $0.idle }
    row("idle: lines/s", 1) { $0.idle.linesPerSecond }
    if kind == .pipewire {
      textRow("idle: PipeWire quantum") { $0.quantumIdle?.description ?? "none" }
    }
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
    for figures in tools { Swift.print("\(figures.name) input: \(figures.input)") }
    if let settings {
      Swift.print(
        "PipeWire quantum in frames at \(settings.rate) Hz (\"none\": the graph did not run); "
          + "session default \(settings.quantum), with only the music player "
          + (quantumPlayerAlone?.description ?? "none"))
    }
    for note in notes { Swift.print(note) }
    let quantum =
      kind == .pipewire
      ? "the quantum from pw-profiler over \(fmt(QuantumRange.sampleSeconds, 1)) s after each; "
      : ""
    Swift.print(
      "(CPU exactly from task schedstat over \(fmt(playingSeconds, 0)) s playing and "
        + "\(fmt(idleSeconds, 0)) s idle; \(quantum)memory from smaps_rollup at the end of "
        + "the music; onset = paplay spawn → first line with a bar ≥ 500)")
    Swift.print()
    verdicts()
  }

  // MARK: - Rows

  /// A row of numbers, one per tool, and pulsebar's ratio to cava's.
  private func row(_ name: String, _ decimals: Int, _ value: (ToolFigures) -> Double) {
    let theirs = value(cava)
    let ratio = theirs > 0 ? fmt(value(pulsebar) / theirs, 2) + "×" : "-"
    Swift.print(pad(name, 32) + tools.map { pad(fmt(value($0), decimals), 12) }.joined() + ratio)
  }

  /// A row of text, one per tool.
  private func textRow(_ name: String, _ value: (ToolFigures) -> String) {
    Swift.print(pad(name, 32) + tools.map { pad(value($0), 12) }.joined())
  }

  /// The server's CPU in a window: each process apart when it runs several, then the total.
  private func serverRows(
    _ label: String, _ decimals: Int, _ window: (ToolFigures) -> WindowFigures
  ) {
    let names = window(cava).serverParts.map(\.name)
    if names.count > 1 {
      for (index, name) in names.enumerated() {
        row("\(label): \(name)", decimals) { figures in
          let parts = window(figures).serverParts
          return index < parts.count ? parts[index].percent : .nan
        }
      }
    }
    row("\(label): server CPU" + (names.count > 1 ? " total" : ""), decimals) {
      window($0).serverExact
    }
  }

  // MARK: - Verdicts

  /// pulsebar's budgets. "The PipeWire period never lowered" is judged against the session's
  /// default quantum (docs/DESIGN.md, "Input": the server keeps its own period), while pulsebar
  /// records with music and without; the music player alone asks for a longer one, which the
  /// table shows beside it.
  private func verdicts() {
    let (ours, theirs) = (pulsebar.playing, cava.playing)
    verdict(
      "tool + server ≤ 0.6 × cava's",
      ours.toolExact + ours.serverExact <= 0.6 * (theirs.toolExact + theirs.serverExact))
    verdict("tool ≤ 0.4 × cava's", ours.toolExact <= 0.4 * theirs.toolExact)
    verdict(
      "idle: 0 % and no lines",
      pulsebar.idle.toolExact < 0.01 && pulsebar.idle.linesPerSecond == 0)
    if kind == .pipewire {
      if let settings, let playing = pulsebar.quantumPlaying {
        let idle = pulsebar.quantumIdle?.lowest ?? settings.quantum
        verdict(
          "PipeWire period ≥ default \(settings.quantum)",
          playing.lowest >= settings.quantum && idle >= settings.quantum)
      } else {
        Swift.print(pad("PipeWire period ≥ default", 32) + "not measured")
      }
    }
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

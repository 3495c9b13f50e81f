import Glibc

/// Another process's figures from `/proc`.
enum ProcessFigures {
  /// utime + stime of `pid` (all its threads, including exited ones), in seconds.
  static func cpuSeconds(_ pid: pid_t) -> Double {
    guard let stat = read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else {
      return 0
    }
    // Fields after the command: state is field 3, utime 14 and stime 15.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12])
    else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// `VmHWM` (peak resident set) of `pid`, in kB.
  static func peakRSSKilobytes(_ pid: pid_t) -> Int {
    guard let status = read("/proc/\(pid)/status") else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
  }

  private static func read(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: 8192)
    let count = Glibc.read(descriptor, &bytes, bytes.count)
    return count > 0 ? String(decoding: bytes[..<count], as: UTF8.self) : nil
  }
}

extension CavaBench {
  /// The side-by-side table, the ratios and the budget verdicts (DESIGN "Budgets").
  static func printTable(cava: ToolFigures, pulsebar: ToolFigures) {
    func ratio(_ ours: Double, _ theirs: Double) -> String {
      theirs > 0 ? fmt(ours / theirs, 2) + "×" : "-"
    }
    func row(_ name: String, _ ours: Double, _ theirs: Double, _ decimals: Int, _ unit: String) {
      print(
        pad(name, 34) + pad(fmt(theirs, decimals) + unit, 12) + pad(fmt(ours, decimals) + unit, 12)
          + ratio(ours, theirs))
    }
    print(pad("figure", 34) + pad("cava", 12) + pad("pulsebar", 12) + "pulsebar/cava")
    row("CPU while playing (% core)", pulsebar.cpuPlaying, cava.cpuPlaying, 2, "")
    row("  server CPU meanwhile", pulsebar.serverPlaying, cava.serverPlaying, 2, "")
    row(
      "  tool + server", pulsebar.cpuPlaying + pulsebar.serverPlaying,
      cava.cpuPlaying + cava.serverPlaying, 2, "")
    row("lines/s while playing", pulsebar.playingLinesPerSecond, cava.playingLinesPerSecond, 1, "")
    row("CPU while idle (% core)", pulsebar.cpuIdle, cava.cpuIdle, 3, "")
    row("  server CPU meanwhile", pulsebar.serverIdle, cava.serverIdle, 3, "")
    row("lines/s while idle", pulsebar.idleLinesPerSecond, cava.idleLinesPerSecond, 1, "")
    row("onset latency, median (ms)", 1000 * pulsebar.onsetMedian, 1000 * cava.onsetMedian, 0, "")
    row(
      "peak RSS (MB)", Double(pulsebar.peakRSSKilobytes) / 1024,
      Double(cava.peakRSSKilobytes) / 1024, 1, "")
    for figures in [cava, pulsebar] {
      let onsets = figures.onsets.map { fmt(1000 * $0, 0) }.joined(separator: " ")
      print("\(figures.name) onsets (ms, \(figures.onsets.count)/\(bursts) bursts): \(onsets)")
    }
    print(
      "(CPU from /proc/<pid>/stat utime+stime over \(fmt(playingSeconds, 0)) s playing and "
        + "\(fmt(idleSeconds, 0)) s idle; onset = paplay spawn → first line with a bar ≥ 500 "
        + "read by this process)")
    print()
    verdict(
      "CPU while playing ≤ ½ cava's", pulsebar.cpuPlaying <= cava.cpuPlaying / 2)
    verdict(
      "tool + server ≤ cava + server",
      pulsebar.cpuPlaying + pulsebar.serverPlaying <= cava.cpuPlaying + cava.serverPlaying)
    verdict(
      "idle CPU ≤ 0.1 % and no lines",
      pulsebar.cpuIdle <= 0.1 && pulsebar.idleLinesPerSecond == 0)
    verdict(
      "onset latency ≤ cava's",
      pulsebar.onsets.count >= 5 && cava.onsets.count >= 5
        && pulsebar.onsetMedian <= cava.onsetMedian)
    verdict("peak RSS ≤ cava's", pulsebar.peakRSSKilobytes <= cava.peakRSSKilobytes)
  }

  private static func verdict(_ budget: String, _ met: Bool) {
    print(pad(budget, 36) + (met ? "met" : "MISSED"))
  }
}

import Glibc

/// A process's memory in kB: resident, proportional (shared pages split among their users) and
/// unique (Private_Clean + Private_Dirty: what quitting the process would free).
struct MemoryFigures {
  var rss = 0
  var pss = 0
  var uss = 0
  /// USS per ``MappingGroup``, from `/proc/PID/smaps` (where the unique set lives).
  var groups: [MappingGroup: Int] = [:]
}

/// What a mapping of `/proc/PID/smaps` is, for the bench's per-mapping USS rows.
enum MappingGroup: String, CaseIterable {
  case binary = "the executable"
  case fftw = "libfftw3f (cava: libfftw3)"
  case pulse = "libpulse, libpulsecommon"
  case sndfile = "libsndfile + codecs"
  case systemd = "libsystemd"
  case libraries = "other libraries"
  case heap = "heap"
  case anonymous = "other anon (stacks, arenas)"

  /// The group of a mapping named `path` (empty for anonymous) in a process running `executable`.
  static func of(path: Substring, executable: String) -> MappingGroup {
    if path.isEmpty || (path.hasPrefix("[") && path != "[heap]") { return .anonymous }
    if path == "[heap]" { return .heap }
    if path == executable { return .binary }
    let name = path.split(separator: "/").last ?? ""
    let codecs = [
      "libsndfile", "libFLAC", "libvorbis", "libopus", "libogg", "libmpg123", "libmp3lame",
    ]
    if name.hasPrefix("libfftw3") { return .fftw }
    if name.hasPrefix("libpulse") { return .pulse }
    if codecs.contains(where: { name.hasPrefix($0) }) { return .sndfile }
    if name.hasPrefix("libsystemd") { return .systemd }
    return .libraries
  }
}

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

  /// Time on a CPU of all of `pid`'s live threads (schedstat, nanosecond-exact), in seconds.
  static func scheduledSeconds(_ pid: pid_t) -> Double { schedule(pid).seconds }

  /// Time on a CPU of all of `pid`'s live threads (schedstat, nanosecond-exact), in seconds,
  /// and how many times they were put on a CPU (schedstat's third field: about one per
  /// wake-up).
  static func schedule(_ pid: pid_t) -> (seconds: Double, runs: Double) {
    guard let directory = opendir("/proc/\(pid)/task") else { return (0, 0) }
    defer { closedir(directory) }
    var total = (seconds: 0.0, runs: 0.0)
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard name.first?.isNumber == true,
        let text = read("/proc/\(pid)/task/\(name)/schedstat")
      else { continue }
      let fields = text.split(separator: " ").compactMap { Double($0.prefix { !$0.isWhitespace }) }
      guard fields.count >= 3 else { continue }
      total.seconds += fields[0] / 1e9
      total.runs += fields[2]
    }
    return total
  }

  /// `VmHWM` (peak resident set) of `pid`, in kB.
  static func peakRSSKilobytes(_ pid: pid_t) -> Int {
    statusValue(pid, "VmHWM") ?? 0
  }

  /// The number in a `/proc/PID/status` field (`VmRSS` in kB, `Threads`, …), or `nil`.
  static func statusValue(_ pid: pid_t, _ field: String) -> Int? {
    guard let status = read("/proc/\(pid)/status") else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
      let value = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first
      return Int(value ?? "")
    }
    return nil
  }

  /// Descriptors `pid` has open (the entries of `/proc/PID/fd`), or `nil`.
  static func descriptorCount(_ pid: pid_t) -> Int? {
    guard let directory = opendir("/proc/\(pid)/fd") else { return nil }
    defer { closedir(directory) }
    var count = 0
    while let entry = readdir(directory) {
      if entry.pointee.d_name.0 != 0x2e { count += 1 }  // not . or ..
    }
    return count
  }

  /// `pid`'s resident, proportional and unique set sizes, from `smaps_rollup`, and its USS
  /// per mapping group from `smaps`.
  static func memory(_ pid: pid_t) -> MemoryFigures {
    var figures = MemoryFigures()
    guard let text = read("/proc/\(pid)/smaps_rollup") else { return figures }
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard fields.count >= 2, let kilobytes = Int(fields[1]) else { continue }
      switch fields[0] {
      case "Rss:": figures.rss = kilobytes
      case "Pss:": figures.pss = kilobytes
      case "Private_Clean:", "Private_Dirty:": figures.uss += kilobytes
      default: break
      }
    }
    var target = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/\(pid)/exe", &target, target.count - 1)
    let executable = String(
      decoding: target.prefix(max(0, length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var group = MappingGroup.anonymous
    for line in (readWhole("/proc/\(pid)/smaps") ?? "").split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard let first = fields.first else { continue }
      if !first.hasSuffix(":") {
        // A mapping's header: `start-end perms offset dev inode [path]`.
        group = .of(path: fields.count >= 6 ? fields[5] : "", executable: executable)
      } else if first == "Private_Clean:" || first == "Private_Dirty:",
        fields.count >= 2, let kilobytes = Int(fields[1])
      {
        figures.groups[group, default: 0] += kilobytes
      }
    }
    return figures
  }

  /// A /proc file of any size (`smaps` runs to tens of kB), or `nil`.
  static func readWhole(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while case let count = Glibc.read(descriptor, &chunk, chunk.count), count > 0 {
      bytes += chunk[..<count]
    }
    return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
  }

  /// A small /proc file's text, or `nil`.
  static func read(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: 8192)
    let count = Glibc.read(descriptor, &bytes, bytes.count)
    return count > 0 ? String(decoding: bytes[..<count], as: UTF8.self) : nil
  }
}

extension CavaBench {
  /// The side-by-side table, the ratios and the budget verdicts (docs/DESIGN.md, "Budgets").
  func printTable(cava: ToolFigures, pulsebar: ToolFigures) {
    func ratio(_ ours: Double, _ theirs: Double) -> String {
      theirs > 0 ? fmt(ours / theirs, 2) + "×" : "-"
    }
    func row(_ name: String, _ ours: Double, _ theirs: Double, _ decimals: Int, _ unit: String) {
      print(
        pad(name, 34) + pad(fmt(theirs, decimals) + unit, 12) + pad(fmt(ours, decimals) + unit, 12)
          + ratio(ours, theirs))
    }
    print(pad("figure", 34) + pad("cava", 12) + pad("pulsebar", 12) + "pulsebar/cava")
    let (ours, theirs) = (pulsebar, cava)
    row("CPU while playing (% core)", ours.playing.tool, theirs.playing.tool, 2, "")
    row("  server CPU meanwhile", ours.playing.server, theirs.playing.server, 2, "")
    row(
      "  tool + server", ours.playing.tool + ours.playing.server,
      theirs.playing.tool + theirs.playing.server, 2, "")
    row("  exact: tool", ours.playing.toolExact, theirs.playing.toolExact, 2, "")
    row("  exact: server", ours.playing.serverExact, theirs.playing.serverExact, 2, "")
    row("lines/s while playing", ours.playing.linesPerSecond, theirs.playing.linesPerSecond, 1, "")
    row("CPU while idle (% core)", ours.idle.tool, theirs.idle.tool, 3, "")
    row("  server CPU meanwhile", ours.idle.server, theirs.idle.server, 3, "")
    row("  exact: tool", ours.idle.toolExact, theirs.idle.toolExact, 3, "")
    row("  exact: server", ours.idle.serverExact, theirs.idle.serverExact, 3, "")
    row("lines/s while idle", ours.idle.linesPerSecond, theirs.idle.linesPerSecond, 1, "")
    row("onset latency, median (ms)", 1000 * ours.onsetMedian, 1000 * theirs.onsetMedian, 0, "")
    row(
      "peak RSS (MB)", Double(ours.peakRSSKilobytes) / 1024,
      Double(theirs.peakRSSKilobytes) / 1024, 1, "")
    for figures in [cava, pulsebar] {
      let onsets = figures.onsets.map { fmt(1000 * $0, 0) }.joined(separator: " ")
      print("\(figures.name) onsets (ms, \(figures.onsets.count)/\(Self.bursts) bursts): \(onsets)")
    }
    print(
      "(CPU from /proc/<pid>/stat utime+stime, and exactly from task schedstat, over "
        + "\(fmt(playingSeconds, 0)) s playing and \(fmt(idleSeconds, 0)) s idle; onset = paplay "
        + "spawn → first line with a bar ≥ 500 read by this process; verdicts use the exact CPU)")
    print()
    let (playing, idle) = (ours.playing, ours.idle)
    Self.verdict("CPU while playing ≤ ½ cava's", playing.toolExact <= theirs.playing.toolExact / 2)
    Self.verdict(
      "tool + server ≤ cava + server",
      playing.toolExact + playing.serverExact
        <= theirs.playing.toolExact + theirs.playing.serverExact)
    Self.verdict("idle CPU ≤ 0.1 % and no lines", idle.toolExact <= 0.1 && idle.linesPerSecond == 0)
    Self.verdict(
      "onset latency ≤ cava's",
      ours.onsets.count >= 5 && theirs.onsets.count >= 5 && ours.onsetMedian <= theirs.onsetMedian)
    Self.verdict("peak RSS ≤ cava's", ours.peakRSSKilobytes <= theirs.peakRSSKilobytes)
  }

  private static func verdict(_ budget: String, _ met: Bool) {
    print(pad(budget, 36) + (met ? "met" : "MISSED"))
  }
}

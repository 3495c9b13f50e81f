import Glibc
import PulseBarTestSupport

/// The PipeWire graph's period (quantum, in frames) over a short sample: the smallest and the
/// largest the driver ran, so a tool that lowered it even for a moment shows.
///
/// Read with `pw-profiler`, which logs every cycle of the running driver: column 4 is the
/// cycle's duration in µs (quantum / rate). Debian 12's `pw-top` has no batch mode, and
/// `pw-dump` and `pw-metadata` show only what nodes ask for and the defaults, not what the
/// driver runs. The profiler makes pipewire report every cycle, so it is sampled outside the
/// CPU windows.
struct QuantumRange: Equatable {
  var lowest: Int
  var highest: Int

  var description: String { lowest == highest ? "\(lowest)" : "\(lowest)–\(highest)" }

  /// How long each sample listens; long enough for dozens of cycles at the largest quantum.
  static let sampleSeconds = 1.5

  /// The quantum the graph runs while `tool` records (on PipeWire only; `nil` elsewhere, or
  /// when no driver ran during the sample).
  static func sample(_ server: any PrivateAudioServer, while tool: ChildProcess) -> QuantumRange? {
    guard server.kind == .pipewire, tool.isRunning, let rate = settings(server)?.rate else {
      return nil
    }
    // pw-profiler writes its plot scripts into the working directory: give it its own.
    let directory = server.directory + "/profiler"
    mkdir(directory, 0o700)
    guard
      let profiler = try? ChildProcess(
        "sh", ["-c", "cd \(directory) && exec pw-profiler -o quantum.log"],
        environment: server.environment)
    else { return nil }
    _ = tool.readLines(for: sampleSeconds)
    profiler.send(SIGINT)
    _ = try? profiler.waitForExit(timeout: 5)
    let quanta = (PrivatePulseServer.readFile(directory + "/quantum.log") ?? "")
      .split(separator: "\n").compactMap { line -> Int? in
        let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard columns.count > 3, let micros = Double(columns[3]), micros > 0 else { return nil }
        return Int((micros * Double(rate) / 1e6).rounded())
      }
    guard let lowest = quanta.min(), let highest = quanta.max() else { return nil }
    return QuantumRange(lowest: lowest, highest: highest)
  }

  /// The session's default quantum and rate, from `pw-metadata -n settings`
  /// (`clock.quantum`, `clock.rate`).
  static func settings(_ server: any PrivateAudioServer) -> (quantum: Int, rate: Int)? {
    guard server.kind == .pipewire, let lines = try? server.run("pw-metadata", ["-n", "settings"])
    else { return nil }
    func value(_ key: String) -> Int? {
      // update: id:0 key:'clock.quantum' value:'1024' type:''
      guard let line = lines.first(where: { $0.contains("key:'\(key)'") }),
        let range = line.firstRange(of: "value:'")
      else { return nil }
      return Int(line[range.upperBound...].prefix { $0 != "'" })
    }
    guard let quantum = value("clock.quantum"), let rate = value("clock.rate") else { return nil }
    return (quantum, rate)
  }
}

import Glibc
import PulseBarSystem

/// What the MPRIS tests and the MPRIS bench share: tagged tracks, a real player (mpv with
/// Debian's mpv-mpris plugin), bus signal timestamps, and per-thread wake-up counts.
package enum MPRISFixtures {
  /// A 30 s tone tagged with `title`, artist "The Band" and album "Debut" (FLAC Vorbis
  /// comments, written by sox). Returns its path.
  /// `effects` are sox effects after the tone (`["tremolo", "1.5", "90"]`: a level that rises
  /// and falls, so the bars move).
  package static func taggedTrack(
    in directory: String, _ name: String, title: String, hertz: Int, effects: [String] = []
  ) throws(SpawnError) -> String {
    let path = "\(directory)/\(name).flac"
    let sox = try ChildProcess(
      "sox",
      [
        "-n", "--comment", "TITLE=\(title)", "--add-comment", "ARTIST=The Band", "--add-comment",
        "ALBUM=Debut", path, "synth", "30", "sine", "\(hertz)", "vol", "0.5",
      ] + effects)
    guard try sox.waitForExit(timeout: 60) == 0 else {
      throw SpawnError(message: "sox: \(sox.standardError)")
    }
    return path
  }

  /// 2000 Hz beeps, 0.1 s every 0.5 s for `seconds`, as a WAV in `directory` (what a chat or
  /// a game without MPRIS plays beside the player). Returns its path.
  package static func beeps(in directory: String, seconds: Int = 60) throws(SpawnError) -> String {
    let path = "\(directory)/beeps.wav"
    let sox = try ChildProcess(
      "sox",
      [
        "-n", "-r", "44100", "-c", "2", "-b", "16", path, "synth", "0.1", "sine", "2000", "vol",
        "0.5", "pad", "0", "0.4", "repeat", "\(seconds * 2 - 1)",
      ])
    guard try sox.waitForExit(timeout: 60) == 0 else {
      throw SpawnError(message: "sox: \(sox.standardError)")
    }
    return path
  }

  /// Writes a config file that sets `input.scope` (`player` or `output`).
  package static func writeScopeConfig(_ scope: String, to path: String) {
    let file = fopen(path, "w")
    fputs("[input]\nscope = \(scope)\n", file)
    fclose(file)
  }

  /// Where Debian's mpv-mpris puts the plugin, if it is installed.
  package static let mprisPlugin: String? = {
    let candidates: [String] = ["/usr/lib/mpv-mpris/mpris.so", "/etc/mpv/scripts/mpris.so"]
    return candidates.first { access($0, R_OK) == 0 }
  }()

  /// Starts mpv on `files` (audio only, into PulseAudio) with MPRIS, playing or paused.
  /// `options` go before the files (`--sub-auto=no`: mpv itself would open a `.lrc` beside a
  /// track as subtitles, and hang on a FIFO).
  package static func mpv(
    _ files: [String], paused: Bool, environment: [String: String], options: [String] = []
  ) throws(SpawnError) -> ChildProcess {
    guard let plugin = mprisPlugin else { throw SpawnError(message: "mpv-mpris is not installed") }
    var arguments = [
      "--no-config", "--no-video", "--ao=pulse", "--script=" + plugin, "--no-terminal",
    ]
    if paused { arguments.append("--pause") }
    return try ChildProcess("mpv", arguments + options + files, environment: environment)
  }

  /// Wall-clock seconds since the epoch (what dbus-monitor stamps signals with).
  package static func realtimeSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// Voluntary context switches (wake-ups from sleep) per thread name of process `pid`, from
  /// `/proc/PID/task/*/status`.
  package static func wakeups(of pid: pid_t) -> [String: Int] {
    var result: [String: Int] = [:]
    guard let directory = opendir("/proc/\(pid)/task") else { return result }
    defer { closedir(directory) }
    while let entry = readdir(directory) {
      let task = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard task.first?.isNumber == true, let thread = pid_t(task),
        let comm = readFile("/proc/\(pid)/task/\(task)/comm")
      else { continue }
      result[String(comm.prefix { $0 != "\n" }), default: 0] += voluntarySwitches(
        ofThread: thread, in: pid)
    }
    return result
  }

  /// Voluntary context switches of thread `thread` of process `pid` (0 when it is gone), from
  /// `/proc/PID/task/TID/status`; the process's first thread's are `/proc/PID/status`'s.
  package static func voluntarySwitches(ofThread thread: pid_t, in pid: pid_t) -> Int {
    guard let status = readFile("/proc/\(pid)/task/\(thread)/status") else { return 0 }
    return status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
      .flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0
  }

  /// A small /proc file, read in one go.
  private static func readFile(_ path: String) -> String? {
    guard let descriptor = try? FileDescriptor.open(path, O_RDONLY) else { return nil }
    defer { descriptor.closeQuietly() }
    var bytes = [UInt8](repeating: 0, count: 8192)
    let count = bytes.withUnsafeMutableBytes { (try? descriptor.read(into: $0)) ?? 0 }
    return String(decoding: bytes[..<count], as: UTF8.self)
  }

}

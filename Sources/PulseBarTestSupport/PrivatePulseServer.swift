import Glibc

/// A private PulseAudio server for integration tests and benchmarks.
///
/// Runs `pulseaudio -n -F <script>` in a fresh temporary directory (its
/// XDG_RUNTIME_DIR, HOME and socket), with two null sinks, `pb_sink_a` (the
/// default) and `pb_sink_b`, and anonymous access on `<dir>/native`. Several can
/// run at once: each has its own directory.
///
/// The server runs under a small `sh` guard that holds the read end of a pipe
/// from this process and kills the server when that pipe closes, so a crashed
/// test run leaves no stray `pulseaudio` behind. Confined to its creator.
package final class PrivatePulseServer {
  /// The temporary directory holding the socket, the script, the log and test audio.
  package let directory: String
  /// The sinks the script creates; the first is the default.
  package let sinks: [String]
  private var guardProcess: ChildProcess?
  /// The `pulseaudio` process id while it runs, else 0.
  package private(set) var serverPid: pid_t = 0

  /// Starts the server and waits until `pactl info` answers. With `suspendOnIdle` it
  /// loads `module-suspend-on-idle` as desktop servers do: a sink nobody keeps busy
  /// suspends after `idleSeconds` (a corked stream, or one with
  /// `PA_STREAM_DONT_INHIBIT_AUTO_SUSPEND`, does not keep it busy).
  package init(
    sinks: [String] = ["pb_sink_a", "pb_sink_b"], suspendOnIdle: Bool = false,
    idleSeconds: Int = 5
  ) throws(SpawnError) {
    var template = Array("/tmp/pulsebar-pa.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      throw SpawnError(message: "mkdtemp: \(String(cString: strerror(errno)))")
    }
    directory = String(cString: made)
    self.sinks = sinks
    var script = "load-module module-native-protocol-unix auth-anonymous=1 socket=\(socketPath)\n"
    for sink in sinks { script += "load-module module-null-sink sink_name=\(sink)\n" }
    if let first = sinks.first { script += "set-default-sink \(first)\n" }
    if suspendOnIdle { script += "load-module module-suspend-on-idle timeout=\(idleSeconds)\n" }
    try Self.writeFile(directory + "/server.pa", script)
    do {
      try start()
    } catch {
      stop()
      throw error
    }
  }

  deinit { stop() }

  // MARK: - Addresses

  /// The server's native socket.
  package var socketPath: String { directory + "/native" }
  /// The address for `PULSE_SERVER` or `pa_context_connect`.
  package var serverAddress: String { "unix:" + socketPath }
  /// What a client process needs to find this server and nothing else.
  package var environment: [String: String] {
    [
      "PULSE_SERVER": serverAddress, "XDG_RUNTIME_DIR": directory, "HOME": directory,
      "PULSE_RUNTIME_PATH": directory + "/runtime", "PULSE_STATE_PATH": directory + "/state",
    ]
  }

  // MARK: - Life

  /// Starts the server (again) on the same socket; waits until it answers.
  package func start() throws(SpawnError) {
    guard guardProcess == nil else { return }
    let arguments = [
      "-n", "-F", directory + "/server.pa", "--daemonize=no", "--exit-idle-time=-1",
      "--disallow-exit", "--system=false", "--use-pid-file=no",
      "--log-target=file:" + directory + "/server.log",
    ]
    // `$!` is the server; `read` returns when this process closes the pipe or dies.
    let guardScript =
      "pulseaudio \"$@\" & p=$!; echo $p; read _; kill -KILL $p 2>/dev/null; wait $p"
    var serverEnvironment = environment
    serverEnvironment["PULSE_SERVER"] = nil
    let process = try ChildProcess(
      "sh", ["-c", guardScript, "sh"] + arguments, environment: serverEnvironment, stdin: true)
    guardProcess = process
    guard let pidLine = process.readLine(timeout: 5), let pid = Int32(pidLine) else {
      throw SpawnError(message: "pulseaudio did not start: \(process.standardError)")
    }
    serverPid = pid
    let deadline = ChildProcess.now() + 10
    while ChildProcess.now() < deadline {
      if (try? pactl(["info"])) != nil { return }
      if !process.isRunning { break }
      usleep(50_000)
    }
    throw SpawnError(message: "pulseaudio did not answer: \(log)")
  }

  /// Kills the server with SIGKILL (as a crash would) and waits until it is gone.
  package func kill() {
    guard let process = guardProcess else { return }
    process.closeStdin()
    _ = try? process.waitForExit(timeout: 5)
    guardProcess = nil
    serverPid = 0
  }

  /// Kills the server and starts a new one on the same socket.
  package func restart() throws(SpawnError) {
    kill()
    try start()
  }

  /// Kills the server and removes its directory. Idempotent.
  package func stop() {
    kill()
    if access(directory, F_OK) == 0, let remover = try? ChildProcess("rm", ["-rf", directory]) {
      _ = try? remover.waitForExit(timeout: 10)
    }
  }

  /// The server's own log.
  package var log: String { Self.readFile(directory + "/server.log") ?? "" }

  // MARK: - Control

  /// Runs `pactl` against this server; returns its stdout, throws on a non-zero exit.
  @discardableResult
  package func pactl(_ arguments: [String]) throws(SpawnError) -> [String] {
    try run("pactl", arguments)
  }

  /// Makes `sink` the default sink.
  package func setDefaultSink(_ sink: String) throws(SpawnError) {
    try pactl(["set-default-sink", sink])
  }

  /// Plays a sine of `frequency` Hz for `seconds` into `sink` (default: the server's default).
  /// Returns the running `paplay`; killing it stops the stream at once.
  package func play(
    tone frequency: Double, seconds: Double, sink: String? = nil, volume: Double = 0.5
  ) throws(SpawnError) -> ChildProcess {
    let path = "\(directory)/tone-\(Int(frequency))-\(Int(seconds * 1000))-\(Int(volume * 100)).wav"
    if access(path, F_OK) != 0 {
      try run(
        "sox",
        [
          "-n", "-r", "44100", "-c", "2", "-b", "16", path, "synth", "\(seconds)", "sine",
          "\(frequency)", "vol", "\(volume)",
        ])
    }
    return try play(file: path, sink: sink)
  }

  /// Plays an audio file with `paplay` into `sink` (default: the server's default).
  package func play(file path: String, sink: String? = nil) throws(SpawnError) -> ChildProcess {
    var arguments = [path]
    if let sink { arguments = ["-d", sink] + arguments }
    return try ChildProcess("paplay", arguments, environment: environment)
  }

  /// Runs a tool with this server's environment; its stdout lines, or throws on failure.
  @discardableResult
  package func run(_ tool: String, _ arguments: [String]) throws(SpawnError) -> [String] {
    let process = try ChildProcess(tool, arguments, environment: environment)
    var lines: [String] = []
    while let line = process.readLine(timeout: 10) { lines.append(line) }
    let status = try process.waitForExit(timeout: 10)
    guard status == 0 else {
      throw SpawnError(
        message: "\(tool) \(arguments.joined(separator: " ")): exit \(status): "
          + process.standardError)
    }
    return lines
  }

  // MARK: - Files

  private static func writeFile(_ path: String, _ text: String) throws(SpawnError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw SpawnError(message: "\(path): \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    var text = text
    let written = text.withUTF8 { write(descriptor, $0.baseAddress, $0.count) }
    guard written == text.utf8.count else {
      throw SpawnError(message: "\(path): short write")
    }
  }

  private static func readFile(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(descriptor, &chunk, chunk.count)
      if count <= 0 { break }
      bytes.append(contentsOf: chunk[..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

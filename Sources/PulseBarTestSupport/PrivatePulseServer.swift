import Glibc

/// A private PulseAudio server for integration tests and benchmarks.
///
/// Runs `pulseaudio -n -F <script>` in a fresh temporary directory (its
/// XDG_RUNTIME_DIR, HOME and socket), with two null sinks, `pb_sink_a` (the
/// default) and `pb_sink_b`, and anonymous access on `<dir>/native`. Several can
/// run at once: each has its own directory.
///
/// The server runs under a ``ServerGuard``, so a crashed test run leaves no stray
/// `pulseaudio` behind. Confined to its creator.
package final class PrivatePulseServer: PrivateAudioServer {
  /// Always ``AudioServerKind/pulseaudio``.
  package var kind: AudioServerKind { .pulseaudio }
  /// The temporary directory holding the socket, the script, the log and test audio.
  package let directory: String
  /// The sinks the script creates; the first is the default.
  package let sinks: [String]
  private var serverGuard: ServerGuard?
  /// The `pulseaudio` process id while it runs, else 0.
  package var serverPid: pid_t { serverGuard?.pid ?? 0 }

  /// Starts the server and waits until `pactl info` answers. With `suspendOnIdle` it
  /// loads `module-suspend-on-idle` as desktop servers do: a sink nobody keeps busy
  /// suspends after `idleSeconds` (a corked stream, or one with
  /// `PA_STREAM_DONT_INHIBIT_AUTO_SUSPEND`, does not keep it busy).
  package init(
    sinks: [String] = ["pb_sink_a", "pb_sink_b"], suspendOnIdle: Bool = false,
    idleSeconds: Int = 5
  ) throws(SpawnError) {
    directory = try ServerGuard.makeTemporaryDirectory("pulsebar-pa")
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
  /// What a client process needs to find this server and nothing else.
  package var environment: [String: String] {
    [
      "PULSE_SERVER": serverAddress, "XDG_RUNTIME_DIR": directory, "HOME": directory,
      "PULSE_RUNTIME_PATH": directory + "/runtime", "PULSE_STATE_PATH": directory + "/state",
      // The session bus a `PrivateSessionBus` in this directory listens on; without one, no
      // bus at all: the desktop's MPRIS players never reach a test.
      "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + directory + "/bus",
    ]
  }

  // MARK: - Life

  /// Starts the server (again) on the same socket; waits until it answers.
  package func start() throws(SpawnError) {
    guard serverGuard == nil else { return }
    let arguments = [
      "-n", "-F", directory + "/server.pa", "--daemonize=no", "--exit-idle-time=-1",
      "--disallow-exit", "--system=false", "--use-pid-file=no",
      "--log-target=file:" + directory + "/server.log",
    ]
    let script =
      "pulseaudio \"$@\" & p=$!; echo $p; read _; kill -KILL $p 2>/dev/null; wait $p"
    var serverEnvironment = environment
    serverEnvironment["PULSE_SERVER"] = nil
    let started = try ServerGuard(
      "pulseaudio", script: script, arguments: arguments, environment: serverEnvironment)
    serverGuard = started
    guard started.wait(until: { (try? pactl(["info"])) != nil }) else {
      throw SpawnError(message: "pulseaudio did not answer: \(log)")
    }
  }

  /// Kills the server with SIGKILL (as a crash would) and waits until it is gone.
  package func kill() {
    serverGuard?.kill()
    serverGuard = nil
  }

  /// Kills the server and removes its directory. Idempotent.
  package func stop() {
    kill()
    Self.removeDirectory(directory)
  }

  /// The server's own log.
  package var log: String { Self.readFile(directory + "/server.log") ?? "" }

  // MARK: - Control

  /// `pactl set-default-sink`: PulseAudio's own tool is pactl.
  package func setDefaultSinkNatively(_ sink: String) throws(SpawnError) {
    try setDefaultSink(sink)
  }

  /// Loads `module-null-source`.
  package func addNullSource(_ name: String) throws(SpawnError) {
    try pactl(["load-module", "module-null-source", "source_name=\(name)"])
  }

  /// Unloads the `module-null-sink` that made `sink`.
  package func removeSink(_ sink: String) throws(SpawnError) {
    let modules = try pactl(["list", "short", "modules"])
    guard let line = modules.first(where: { $0.contains("sink_name=\(sink)") }) else {
      throw SpawnError(message: "no module made \(sink): \(modules)")
    }
    try pactl(["unload-module", String(line.split(separator: "\t")[0])])
  }

  // MARK: - Files

  /// Writes `text` to `path` (created or truncated).
  package static func writeFile(_ path: String, _ text: String) throws(SpawnError) {
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

  /// Removes `path` and everything under it, if it exists.
  package static func removeDirectory(_ path: String) {
    if access(path, F_OK) == 0, let remover = try? ChildProcess("rm", ["-rf", path]) {
      _ = try? remover.waitForExit(timeout: 10)
    }
  }

  /// The contents of `path`, or `nil` if it cannot be read.
  package static func readFile(_ path: String) -> String? {
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

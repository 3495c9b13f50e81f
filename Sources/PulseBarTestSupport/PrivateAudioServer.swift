import Glibc

/// A private audio server that speaks the PulseAudio protocol, for integration tests and
/// benchmarks: its own temporary directory, null sinks, and the environment a client needs
/// to reach it and nothing else. Confined to its creator.
package protocol PrivateAudioServer: AnyObject {
  /// What runs behind the PulseAudio protocol.
  var kind: AudioServerKind { get }
  /// The temporary directory holding sockets, config, logs and test audio.
  var directory: String { get }
  /// The null sinks it has; the first is the default.
  var sinks: [String] { get }
  /// The socket that speaks the PulseAudio protocol.
  var socketPath: String { get }
  /// What a client process needs to find this server and nothing else.
  var environment: [String: String] { get }
  /// The server's own log (every process of it).
  var log: String { get }
  /// The process id of the process that serves the PulseAudio protocol while it runs, else 0.
  var serverPid: pid_t { get }
  /// Starts the server (again) with the same sockets and sinks; waits until it answers.
  func start() throws(SpawnError)
  /// Kills every server process with SIGKILL (as a crash would) and waits until they are gone.
  func kill()
  /// Kills the server and removes its directory. Idempotent.
  func stop()
  /// Makes `sink` the default sink the way this server's own tool does (`pactl` on
  /// PulseAudio, `wpctl set-default` on PipeWire).
  func setDefaultSinkNatively(_ sink: String) throws(SpawnError)
  /// Removes the null sink `sink` from the running server, as unplugging a device does.
  func removeSink(_ sink: String) throws(SpawnError)
  /// Adds a null source (a virtual microphone, no monitor) named `name`.
  func addNullSource(_ name: String) throws(SpawnError)
}

extension PrivateAudioServer {
  /// The address for `PULSE_SERVER` or `pa_context_connect`.
  package var serverAddress: String { "unix:" + socketPath }

  /// Kills the server and starts a new one on the same socket.
  package func restart() throws(SpawnError) {
    kill()
    try start()
  }

  /// Runs `pactl` against this server; returns its stdout, throws on a non-zero exit.
  @discardableResult
  package func pactl(_ arguments: [String]) throws(SpawnError) -> [String] {
    try run("pactl", arguments)
  }

  /// Polls the state `pactl list short sinks` gives `sink` (RUNNING, IDLE, SUSPENDED) every
  /// 0.1 s until it is `wanted` or `timeout` s passed; returns the last state seen.
  package func waitForSinkState(_ sink: String, _ wanted: String, timeout: Double)
    throws(SpawnError) -> String
  {
    var state = ""
    let end = ChildProcess.now() + timeout
    while ChildProcess.now() < end {
      let line = try pactl(["list", "short", "sinks"]).first {
        $0.split(separator: "\t").dropFirst().first == Substring(sink)
      }
      state = line.flatMap { $0.split(separator: "\t").last.map(String.init) } ?? "no sink"
      if state == wanted { break }
      usleep(100_000)
    }
    return state
  }

  /// Makes `sink` the default sink with `pactl set-default-sink`. On PipeWire it returns once
  /// WirePlumber has made it `default.audio.sink` (pipewire-pulse only sets the configured
  /// default), like ``PrivatePipeWireSession/setDefaultSinkNatively(_:)``.
  package func setDefaultSink(_ sink: String) throws(SpawnError) {
    try pactl(["set-default-sink", sink])
    if let session = self as? PrivatePipeWireSession {
      try session.awaitDefaultSink(sink) { () throws(SpawnError) in
        _ = try pactl(["set-default-sink", sink])
      }
    }
  }

  /// The index `pactl list short sources` gives the source named `name`.
  package func sourceIndex(_ name: String) throws(SpawnError) -> String? {
    try pactl(["list", "short", "sources"]).lazy.map { $0.split(separator: "\t") }
      .first { $0.count > 1 && $0[1] == name }.map { String($0[0]) }
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
}

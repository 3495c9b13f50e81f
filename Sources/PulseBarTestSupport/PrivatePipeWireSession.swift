import Glibc

/// A private PipeWire session for integration tests: `pipewire`, `wireplumber` and
/// `pipewire-pulse` in a fresh temporary directory, as a desktop runs them.
///
/// The directory is the session's XDG_RUNTIME_DIR, and HOME, XDG_CONFIG_HOME and
/// XDG_STATE_HOME live under it, so nothing reads or writes the machine's own PipeWire
/// config or WirePlumber state. The null sinks (`pb_sink_a`, the default by priority, and
/// `pb_sink_b`) are `support.null-audio-sink` nodes declared in a `pipewire.conf.d` drop-in,
/// so a restarted session has them again. WirePlumber needs a session bus: the session
/// starts a ``PrivateSessionBus`` on `<directory>/bus` that outlives restarts (pipewire's
/// portal and WirePlumber's reservation modules use it). With no sound card here,
/// WirePlumber's ALSA, V4L2, libcamera and BlueZ monitors are off.
///
/// The three processes run under one ``ServerGuard``: a crashed test run leaves none behind.
/// A session starts in ~60 ms (a ``PrivatePulseServer`` in ~35 ms), so every test starts its
/// own: no default sink, remembered stream target or suspend left by one test meets the next.
/// Confined to its creator.
package final class PrivatePipeWireSession: PrivateAudioServer {
  /// Always ``AudioServerKind/pipewire``.
  package var kind: AudioServerKind { .pipewire }
  /// The session's XDG_RUNTIME_DIR: sockets, config, state, logs and test audio.
  package let directory: String
  /// The null sinks the drop-in declares; the first is the default.
  package let sinks: [String]
  private var bus: PrivateSessionBus?
  private var serverGuard: ServerGuard?
  /// The `pipewire-pulse` process id while it runs, else 0.
  package var serverPid: pid_t { serverGuard?.pid ?? 0 }

  /// Writes the config and starts the session; waits until pipewire-pulse answers with the
  /// first sink as default. With `suspendOnIdle` WirePlumber suspends a sink nobody keeps
  /// busy after `idleSeconds` (its desktop default is 5 s); without, sinks never suspend,
  /// as on a ``PrivatePulseServer`` without `module-suspend-on-idle`.
  package init(
    sinks: [String] = ["pb_sink_a", "pb_sink_b"], suspendOnIdle: Bool = false,
    idleSeconds: Int = 5
  ) throws(SpawnError) {
    directory = try ServerGuard.makeTemporaryDirectory("pulsebar-pw")
    self.sinks = sinks
    do {
      try writeConfig(suspendSeconds: suspendOnIdle ? idleSeconds : 0)
      bus = try PrivateSessionBus(directory: directory)
      try start()
    } catch {
      stop()
      throw error
    }
  }

  deinit { stop() }

  // MARK: - Addresses

  /// pipewire-pulse's socket (its default place under XDG_RUNTIME_DIR).
  package var socketPath: String { directory + "/pulse/native" }
  /// What a client needs to reach this session (PulseAudio protocol, native PipeWire,
  /// `wpctl`, the session bus) and nothing of the machine's.
  package var environment: [String: String] {
    [
      "PULSE_SERVER": serverAddress, "XDG_RUNTIME_DIR": directory, "HOME": directory + "/home",
      "XDG_CONFIG_HOME": directory + "/config", "XDG_STATE_HOME": directory + "/state",
      "PULSE_RUNTIME_PATH": directory + "/pulse", "PULSE_STATE_PATH": directory + "/state",
      "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + directory + "/bus",
      // The session's own socket even if the caller's environment names another; no
      // RealtimeKit requests (module-rt) on a bus that has no rtkit.
      "PIPEWIRE_REMOTE": "pipewire-0", "DISABLE_RTKIT": "1",
    ]
  }

  // MARK: - Life

  /// Starts pipewire, then WirePlumber and pipewire-pulse; waits until pipewire-pulse
  /// answers and WirePlumber has chosen a default sink in the `default` metadata (before that,
  /// streams stay unlinked).
  package func start() throws(SpawnError) {
    guard serverGuard == nil else { return }
    // A killed pipewire leaves its socket behind: remove it so the wait sees the new one.
    let script = """
      d=$XDG_RUNTIME_DIR; rm -f "$d/pipewire-0" "$d/pulse/native"
      pipewire >>"$d/pipewire.log" 2>&1 & a=$!
      i=0; while [ ! -S "$d/pipewire-0" ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i+1)); done
      wireplumber >>"$d/wireplumber.log" 2>&1 & b=$!
      pipewire-pulse >>"$d/pipewire-pulse.log" 2>&1 & c=$!
      echo $c; read _; kill -KILL $a $b $c 2>/dev/null; wait
      """
    var serverEnvironment = environment
    serverEnvironment["PULSE_SERVER"] = nil
    let started = try ServerGuard("pipewire", script: script, environment: serverEnvironment)
    serverGuard = started
    // pipewire-pulse answers with a default sink before WirePlumber has chosen one (it falls
    // back to the sink of highest priority), and a loaded machine can take seconds more to
    // run WirePlumber's scripts: until `default.audio.sink` is set, native streams find "no
    // node available". So both are waited for.
    let ready = started.wait {
      guard let info = try? pactl(["info"]),
        info.contains(where: { line in sinks.contains { line == "Default Sink: \($0)" } }),
        let metadata = try? run("pw-metadata", ["-n", "default", "0", "default.audio.sink"])
      else { return false }
      return metadata.contains { line in
        line.contains("key:'default.audio.sink'")
          && sinks.contains { line.contains("\"name\":\"\($0)\"") }
      }
    }
    guard ready else { throw SpawnError(message: "the PipeWire session did not answer: \(log)") }
  }

  /// Kills pipewire, WirePlumber and pipewire-pulse with SIGKILL; the bus stays.
  package func kill() {
    serverGuard?.kill()
    serverGuard = nil
  }

  /// Kills the session and its bus and removes the directory. Idempotent.
  package func stop() {
    kill()
    bus?.stop()
    bus = nil
    PrivatePulseServer.removeDirectory(directory)
  }

  /// The logs of pipewire, WirePlumber and pipewire-pulse, in that order.
  package var log: String {
    ["pipewire", "wireplumber", "pipewire-pulse"].map { name in
      "\(name): " + (PrivatePulseServer.readFile("\(directory)/\(name).log") ?? "")
    }.joined(separator: "\n")
  }

  // MARK: - Control

  /// `wpctl set-default` with the sink's PipeWire object id (the node id, which
  /// pipewire-pulse also gives as the sink's index); returns once WirePlumber has made it
  /// `default.audio.sink` (what clients follow), and throws when it has not within 15 s, so a
  /// test's failure tells WirePlumber's delay apart from a client that did not follow.
  package func setDefaultSinkNatively(_ sink: String) throws(SpawnError) {
    let request = { () throws(SpawnError) in
      _ = try self.run("wpctl", ["set-default", try self.nodeId(sink)])
    }
    try request()
    try awaitDefaultSink(sink, request: request)
  }

  /// Waits until WirePlumber has made `sink` `default.audio.sink`; throws, with WirePlumber's
  /// log, when it has not within 15 s. A CI run once saw a `pactl set-default-sink` not taken
  /// up in 15 s on a loaded machine; a request not answered in 5 s is made once more (what a
  /// user would do), so a test's failure means WirePlumber's refusal or a client that did not
  /// follow, not one lost request.
  package func awaitDefaultSink(
    _ sink: String, request: () throws(SpawnError) -> Void
  ) throws(SpawnError) {
    var metadata: [String] = []
    func isDefault() -> Bool {
      metadata = (try? run("pw-metadata", ["-n", "default", "0", "default.audio.sink"])) ?? []
      return metadata.contains { $0.contains("\"name\":\"\(sink)\"") }
    }
    if serverGuard?.wait(timeout: 5, until: isDefault) == true { return }
    try request()
    if serverGuard?.wait(timeout: 10, until: isDefault) == true { return }
    throw SpawnError(
      message: "WirePlumber did not make \(sink) the default in 15 s: \(metadata); "
        + "wireplumber.log: \(PrivatePulseServer.readFile(directory + "/wireplumber.log") ?? "")")
  }

  /// Destroys the sink's node with `pw-cli destroy`, as unplugging a device does.
  package func removeSink(_ sink: String) throws(SpawnError) {
    try run("pw-cli", ["destroy", try nodeId(sink)])
  }

  /// Creates a lingering `support.null-audio-sink` node of class Audio/Source/Virtual with
  /// `pw-cli` (pipewire-pulse has no `module-null-source`).
  package func addNullSource(_ name: String) throws(SpawnError) {
    try run(
      "pw-cli",
      [
        "create-node", "adapter",
        "{ factory.name = support.null-audio-sink node.name = \(name) "
          + "media.class = Audio/Source/Virtual object.linger = true audio.position = [ FL FR ] }",
      ])
  }

  /// The period (quantum, in frames) the graph driven by `node` runs at, as `pw-top` shows it
  /// after watching for `seconds`; `nil` while the node does not run.
  package func quantum(of node: String, seconds: Double = 1.5) throws(SpawnError) -> Int? {
    // A running driver's row: "R   30   2048  48000 119.9us … F32P 2 48000 pb_sink_a".
    try pwTopRow(of: node, seconds: seconds) { $0.count > 4 && $0[0] == "R" }.flatMap {
      Int($0[2])
    }
  }

  /// The format `node` runs with, as `pw-top` shows it ("F32LE 2 48000": sample format,
  /// channels, rate); `nil` if pw-top showed no row for it.
  package func format(of node: String, seconds: Double = 1.5) throws(SpawnError) -> String? {
    try pwTopRow(of: node, seconds: seconds) { $0.count > 4 }.map {
      $0.dropLast().suffix(3).joined(separator: " ")
    }
  }

  /// The fields of the last `pw-top` row for `node` that `matches`, after watching for
  /// `seconds`. pw-top draws only on a terminal: it runs under `script`, and its screen is cut
  /// at the escape sequences.
  private func pwTopRow(
    of node: String, seconds: Double, where matches: ([Substring]) -> Bool
  ) throws(SpawnError) -> [Substring]? {
    let screen = try run(
      "sh",
      [
        "-c",
        "timeout \(seconds) script -qfc pw-top /dev/null | sed 's/\\x1b\\[[0-9;?]*[A-Za-z]/\\n/g'",
      ])
    for line in screen.reversed() {
      // The last row of the screen ends in a carriage return.
      let fields = line.split { $0 == " " || $0 == "\r" }
      if fields.last == Substring(node), matches(fields) { return fields }
    }
    return nil
  }

  /// The default period (`clock.quantum` in the `settings` metadata).
  package func defaultQuantum() throws(SpawnError) -> Int? {
    for line in try run("pw-metadata", ["-n", "settings", "0", "clock.quantum"]) {
      if let range = line.firstRange(of: "value:'") {
        return Int(line[range.upperBound...].prefix { $0.isNumber })
      }
    }
    return nil
  }

  /// The node id of `sink` (its index in `pactl list short sinks`).
  private func nodeId(_ sink: String) throws(SpawnError) -> String {
    let lines = try pactl(["list", "short", "sinks"])
    guard
      let line = lines.first(where: { $0.split(separator: "\t").dropFirst().first == "\(sink)" })
    else { throw SpawnError(message: "no sink \(sink): \(lines)") }
    return String(line.split(separator: "\t")[0])
  }

  // MARK: - Config

  /// The sinks' drop-in and WirePlumber's: no hardware monitors, a suspend timeout.
  private func writeConfig(suspendSeconds: Int) throws(SpawnError) {
    let config = directory + "/config"
    for path in [
      "/home", "/state", "/pulse", "/config", "/config/pipewire",
      "/config/pipewire/pipewire.conf.d",
      "/config/wireplumber", "/config/wireplumber/main.lua.d",
      "/config/wireplumber/bluetooth.lua.d",
    ] where mkdir(directory + path, 0o700) != 0 {
      throw SpawnError(message: "mkdir \(directory + path): \(String(cString: strerror(errno)))")
    }
    var nodes = ""
    for (position, sink) in sinks.enumerated() {
      // The first sink has the highest priority: WirePlumber makes it the default.
      let priority = 2000 - position * 100
      nodes += """
          { factory = adapter
            args = { factory.name = support.null-audio-sink node.name = "\(sink)"
                     node.description = "\(sink)" media.class = Audio/Sink object.linger = true
                     audio.position = [ FL FR ] priority.session = \(priority)
                     priority.driver = \(priority)
                     session.suspend-timeout-seconds = \(suspendSeconds) } }

        """
    }
    try PrivatePulseServer.writeFile(
      config + "/pipewire/pipewire.conf.d/50-pulsebar-sinks.conf",
      "# pulsebar's test sinks: declared here, so a restarted session has them again.\n"
        + "context.objects = [\n\(nodes)]\n")
    // After 50-*-config.lua has made the tables and before 90-enable-all.lua loads them.
    try PrivatePulseServer.writeFile(
      config + "/wireplumber/main.lua.d/51-pulsebar-no-hardware.lua",
      "alsa_monitor.enabled = false\nv4l2_monitor.enabled = false\n"
        + "libcamera_monitor.enabled = false\n")
    try PrivatePulseServer.writeFile(
      config + "/wireplumber/bluetooth.lua.d/51-pulsebar-no-hardware.lua",
      "bluez_monitor.enabled = false\n")
  }
}

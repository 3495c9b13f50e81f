import Glibc

/// Which audio server a private test server runs: the integration suite runs once per
/// kind that is installed (`@Test(arguments: AudioServerKind.allCases)`).
package enum AudioServerKind: String, CaseIterable, Sendable, CustomStringConvertible {
  /// `pulseaudio -n` with null sinks: ``PrivatePulseServer``.
  case pulseaudio
  /// pipewire + wireplumber + pipewire-pulse with null sinks: ``PrivatePipeWireSession``.
  case pipewire

  package var description: String { rawValue }

  /// The programs a private server of this kind runs; every one must be on PATH.
  package var programs: [String] {
    switch self {
    case .pulseaudio: ["pulseaudio", "pactl", "paplay"]
    case .pipewire:
      ["pipewire", "wireplumber", "pipewire-pulse", "wpctl", "pw-cli", "dbus-daemon", "pactl"]
    }
  }

  /// Why tests skip this kind: `PULSEBAR_TEST_SERVERS` (a comma-separated list of kinds, to
  /// run or time one half of the matrix) leaves it out, or a program is missing from PATH.
  /// `nil` when it runs.
  package var skipReason: String? {
    if let selected = getenv("PULSEBAR_TEST_SERVERS").map({ String(cString: $0) }),
      !selected.split(separator: ",").contains(Substring(rawValue))
    {
      return "\(rawValue) is not in PULSEBAR_TEST_SERVERS=\(selected)"
    }
    return missingReason
  }

  /// Why this kind cannot run here (a program missing from PATH), or `nil` when it can.
  package var missingReason: String? {
    let missing = programs.filter { !Self.onPath($0) }
    guard !missing.isEmpty else { return nil }
    return "\(rawValue) is not installed here (no \(missing.joined(separator: ", ")) on PATH); "
      + "`make test-deps` installs it"
  }

  /// Starts a private server of this kind with `sinks` (the first is the default).
  ///
  /// With `suspendOnIdle` a sink nobody keeps busy suspends after `idleSeconds`, as on a
  /// desktop (PulseAudio: `module-suspend-on-idle`; PipeWire: WirePlumber's node suspend).
  package func start(
    sinks: [String] = ["pb_sink_a", "pb_sink_b"], suspendOnIdle: Bool = false,
    idleSeconds: Int = 5
  ) throws(SpawnError) -> any PrivateAudioServer {
    switch self {
    case .pulseaudio:
      try PrivatePulseServer(sinks: sinks, suspendOnIdle: suspendOnIdle, idleSeconds: idleSeconds)
    case .pipewire:
      try PrivatePipeWireSession(
        sinks: sinks, suspendOnIdle: suspendOnIdle, idleSeconds: idleSeconds)
    }
  }

  private static func onPath(_ program: String) -> Bool {
    guard let path = getenv("PATH").map({ String(cString: $0) }) else { return false }
    return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
  }
}

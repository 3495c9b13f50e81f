/// What a reloaded configuration does to a running daemon: which keys apply now and which wait
/// for a restart.
///
/// The input and the listening socket are made once at start-up (a capture stream, a bound
/// socket, a client table), so `input.source`, `input.raw_sample_rate`,
/// `input.raw_channels`, `socket.path` and `socket.max_clients` keep their running values and
/// are named in one log line; everything else applies at once (bars, format, channels and
/// fps, whose capture follows; glyphs, analysis, scene, bubbles, output).
package struct ReloadPlan: Equatable, Sendable {
  /// The configuration to run from now on: the reloaded one, with the restart-only keys at
  /// their running values.
  package var applied: Configuration
  /// The restart-only keys the reloaded file changed, as the config file names them.
  package var restartOnly: [String]

  package init(running: Configuration, reloaded: Configuration) {
    var applied = reloaded
    var restartOnly: [String] = []
    func keep<Value: Equatable>(_ key: String, _ path: WritableKeyPath<Configuration, Value>) {
      guard reloaded[keyPath: path] != running[keyPath: path] else { return }
      restartOnly.append(key)
      applied[keyPath: path] = running[keyPath: path]
    }
    keep("input.source", \.input)
    keep("input.raw_sample_rate", \.rawSampleRate)
    keep("input.raw_channels", \.rawChannels)
    keep("socket.path", \.socketPath)
    keep("socket.max_clients", \.maxClients)
    self.applied = applied
    self.restartOnly = restartOnly
  }

  /// The one log line for the keys that wait, or `nil` when none does.
  package var notice: String? {
    restartOnly.isEmpty
      ? nil
      : "config reloaded; \(restartOnly.joined(separator: ", ")) take effect at the next restart"
  }
}

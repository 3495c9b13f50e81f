/// Everything a reloaded configuration does to a running daemon, decided once: whether it is
/// taken at all, which keys apply now and which wait for a restart, and who is told what.
/// `Engine.apply(_:)` carries it out, and nothing else decides any part of a reload.
///
/// The input and the listening socket are made once at start-up (a capture stream, a bound
/// socket, a client table), so `input.source`, `input.raw_sample_rate`,
/// `input.raw_channels`, `socket.path` and `socket.max_clients` keep their running values and
/// are named in one log line; everything else applies at once (bars, format, channels and
/// fps, whose capture follows; glyphs, analysis, scene, bubbles, output). The new pipeline
/// always continues the old one (its time, scene, player and whose audio plays), and every
/// delivery is handed the plan (stdout and the terminal take ``outputKey`` as it is).
package struct ReloadPlan: Equatable, Sendable {
  /// The configuration to run from now on: the reloaded one, with the restart-only keys at
  /// their running values.
  package var applied: Configuration
  /// The restart-only keys the reloaded file changed, as the config file names them.
  package var restartOnly: [String]
  /// Why the reloaded file is refused whole (its own bar count cannot be laid out at this
  /// sample rate: ``LayoutCheck``), or `nil`. A refused plan applies nothing.
  package var refusal: String?
  /// The capture buffer's format (channels, fps) changes: the buffer drops its audio and the
  /// capture is told.
  package var captureFormatChanged: Bool
  /// The new `input.scope` when it changed (the capture is told), else `nil`.
  package var scopeChange: CaptureScope?
  /// The players' thread's settings changed (`players.*`, `lyrics.directory`,
  /// `colors.from_art`, `colors.background`): they are posted to it.
  package var playerSettingsChanged: Bool
  /// The new consumer of the deliveries that follow the config's format and bar count (stdout,
  /// the terminal) when either changed, else `nil`: they take it as it is.
  package var outputKey: ConsumerKey?

  /// The plan for `reloaded` while `running` runs (the configuration last applied) at
  /// `sampleRate`.
  package init(running: Configuration, reloaded: Configuration, sampleRate: Int) {
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
    // The config's own bar count must lay out (the parser already refuses odd bars in
    // stereo; this catches more bars than the transform has bins at this rate).
    refusal = LayoutCheck.problem(
      bars: applied.bars, configuration: applied, sampleRate: sampleRate)
    captureFormatChanged = applied.channels != running.channels || applied.fps != running.fps
    scopeChange = applied.scope != running.scope ? applied.scope : nil
    let key = ConsumerKey(format: applied.format, bars: applied.bars)
    outputKey = key != ConsumerKey(format: running.format, bars: running.bars) ? key : nil
    playerSettingsChanged =
      applied.players != running.players || applied.lyricsDirectory != running.lyricsDirectory
      || ArtSettings(applied) != ArtSettings(running)
  }

  /// The one log line for the keys that wait, or `nil` when none does.
  package var notice: String? {
    restartOnly.isEmpty
      ? nil
      : "config reloaded; \(restartOnly.joined(separator: ", ")) take effect at the next restart"
  }
}

import PulseBarCore

/// Options of `pulsebar listen`.
package struct ListenOptions: Equatable {
  package var socketPath: String?
  package var configPath: String?
  package var format: OutputFormat?
  package var bars: Int?
  /// `--fps N`: lines per second at most (the daemon caps it at its own rate).
  package var fps: Int?
}

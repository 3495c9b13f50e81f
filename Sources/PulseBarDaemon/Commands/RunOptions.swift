import PulseBarCore

/// Options of `pulsebar run` that are not config keys.
package struct RunOptions: Equatable {
  /// `--config FILE`; `nil` means the default location.
  package var configPath: String?
  /// Config keys set on the command line, applied over the file (`section.key` → value).
  package var overrides: [Override] = []
  package var offline = false
  /// `--socket [PATH]`: serve clients; an empty path means the configured/default one.
  package var socketPath: String?
  package var writeStdout = true
  package var foreground = false
  package var verbose = false
}

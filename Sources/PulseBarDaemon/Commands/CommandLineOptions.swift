import PulseBarCore

/// A command-line problem: one short line, exit status 2.
package struct UsageError: Error, Equatable, CustomStringConvertible {
  package var message: String
  package init(_ message: String) { self.message = message }
  package var description: String { message }
}

/// What `pulsebar` was asked to do.
package enum Command: Equatable {
  case run(RunOptions)
  case listen(ListenOptions)
  case checkConfig(path: String?)
  case bands(BandsOptions)
  /// `--help`, `-h`, `help [COMMAND]`, `COMMAND --help`: the whole help (`nil`) or a command's.
  case help(command: String?)
  /// `ctl ACTION [--player NAME]`.
  case control(ControlOptions)
  /// `status [--json] [--socket PATH]`.
  case status(StatusOptions)
  case version
}

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

/// A config key given on the command line.
package struct Override: Equatable {
  package var option: String
  package var section: String
  package var key: String
  package var value: String
}

/// Options of `pulsebar listen`.
package struct ListenOptions: Equatable {
  package var socketPath: String?
  package var configPath: String?
  package var format: OutputFormat?
  package var bars: Int?
  /// `--fps N`: lines per second at most (the daemon caps it at its own rate).
  package var fps: Int?
}

/// Options of `pulsebar bands`.
package struct BandsOptions: Equatable {
  package var configPath: String?
  package var overrides: [Override] = []
  /// Sample rate to lay the bands out for (the PulseAudio capture's, 44100, by default).
  package var sampleRate = 44100
}

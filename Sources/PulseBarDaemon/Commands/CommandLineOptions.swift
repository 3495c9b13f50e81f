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
  case help
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

/// Parses `pulsebar`'s arguments (without the program name).
package enum CommandLineParser {
  package static let usage = """
    usage: pulsebar [run] [--config FILE] [--format text|waybar|json|raw] [--bars N] [--fps N]
                    [--channels mono|stereo] [--input pulse[:SOURCE]|file:PATH|fifo:PATH|stdin]
                    [--offline] [--socket [PATH]] [--no-stdout] [--foreground] [--seed N] [-v]
           pulsebar listen [--socket PATH] [--format F] [--bars N] [--fps N] [--config FILE]
           pulsebar check-config [FILE]
           pulsebar bands [--bars N] [--low HZ] [--high HZ] [--channels mono|stereo] [--rate HZ] [--config FILE]
           pulsebar --help | --version
    """

  /// Options that set a config key, by command.
  private static let keyOptions: [String: (section: String, key: String)] = [
    "--format": ("general", "format"), "--bars": ("general", "bars"), "--fps": ("general", "fps"),
    "--channels": ("general", "channels"), "--input": ("input", "source"),
    "--seed": ("general", "seed"), "--low": ("analysis", "low_cutoff"),
    "--high": ("analysis", "high_cutoff"),
  ]

  package static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    var arguments = arguments[...]
    switch arguments.first {
    case "--help", "-h", "help": return .help
    case "--version", "-V": return .version
    case "listen":
      return .listen(try parseListen(arguments.dropFirst()))
    case "check-config":
      let rest = arguments.dropFirst()
      guard rest.count <= 1 else { throw UsageError("check-config takes at most one FILE") }
      if let first = rest.first, first.hasPrefix("-") {
        throw UsageError("check-config: unknown option '\(first)'")
      }
      return .checkConfig(path: rest.first)
    case "bands":
      return .bands(try parseBands(arguments.dropFirst()))
    case "run":
      arguments = arguments.dropFirst()
    default:
      break
    }
    return .run(try parseRun(arguments))
  }

  private static func parseRun(_ arguments: ArraySlice<String>) throws(UsageError) -> RunOptions {
    var options = RunOptions()
    var remaining = arguments
    while let argument = remaining.popFirst() {
      switch argument {
      case "--config": options.configPath = try value(of: argument, from: &remaining)
      case "--offline": options.offline = true
      case "--no-stdout": options.writeStdout = false
      case "--foreground": options.foreground = true
      case "-v", "--verbose": options.verbose = true
      case "--socket":
        if let next = remaining.first, !next.hasPrefix("-") {
          options.socketPath = next
          remaining.removeFirst()
        } else {
          options.socketPath = ""
        }
      case "--low", "--high":
        throw UsageError("unknown option '\(argument)' for run (it belongs to 'pulsebar bands')")
      default:
        guard let target = keyOptions[argument] else { throw unknown(argument, command: "run") }
        let text = try value(of: argument, from: &remaining)
        options.overrides.append(
          Override(option: argument, section: target.section, key: target.key, value: text))
      }
    }
    return options
  }

  private static func parseListen(_ arguments: ArraySlice<String>) throws(UsageError)
    -> ListenOptions
  {
    var options = ListenOptions()
    var remaining = arguments
    while let argument = remaining.popFirst() {
      switch argument {
      case "--socket": options.socketPath = try value(of: argument, from: &remaining)
      case "--config": options.configPath = try value(of: argument, from: &remaining)
      case "--format":
        let text = try value(of: argument, from: &remaining)
        guard let format = OutputFormat(rawValue: text) else {
          throw UsageError("--format: expected text, waybar, json or raw, got '\(text)'")
        }
        options.format = format
      case "--bars":
        let text = try value(of: argument, from: &remaining)
        guard let bars = Int(text), (1...512).contains(bars) else {
          throw UsageError("--bars: expected a whole number from 1 to 512, got '\(text)'")
        }
        options.bars = bars
      case "--fps":
        let text = try value(of: argument, from: &remaining)
        guard let fps = Int(text), (1...240).contains(fps) else {
          throw UsageError("--fps: expected a whole number from 1 to 240, got '\(text)'")
        }
        options.fps = fps
      default: throw unknown(argument, command: "listen")
      }
    }
    return options
  }

  private static func parseBands(_ arguments: ArraySlice<String>) throws(UsageError) -> BandsOptions
  {
    var options = BandsOptions()
    var remaining = arguments
    while let argument = remaining.popFirst() {
      switch argument {
      case "--config": options.configPath = try value(of: argument, from: &remaining)
      case "--rate":
        let text = try value(of: argument, from: &remaining)
        guard let rate = Int(text), (8000...384_000).contains(rate) else {
          throw UsageError("--rate: expected a sample rate from 8000 to 384000, got '\(text)'")
        }
        options.sampleRate = rate
      case "--bars", "--low", "--high", "--channels":
        let target = keyOptions[argument]!
        let text = try value(of: argument, from: &remaining)
        options.overrides.append(
          Override(option: argument, section: target.section, key: target.key, value: text))
      default: throw unknown(argument, command: "bands")
      }
    }
    return options
  }

  private static func value(of option: String, from remaining: inout ArraySlice<String>)
    throws(UsageError) -> String
  {
    guard let value = remaining.popFirst() else { throw UsageError("\(option) needs a value") }
    return value
  }

  private static func unknown(_ argument: String, command: String) -> UsageError {
    argument.hasPrefix("-")
      ? UsageError("unknown option '\(argument)' for \(command) (see pulsebar --help)")
      : UsageError("unexpected argument '\(argument)' (see pulsebar --help)")
  }
}

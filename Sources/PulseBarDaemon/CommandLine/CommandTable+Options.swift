import PulseBarCore

// Each command's rows of the option table: what ``CommandTable`` documents and the parser runs.

extension RunOptions: KeyOverriding {}
extension BandsOptions: KeyOverriding {}

extension CommandOption where Options: KeyOverriding {
  /// An option that sets config key `section.key`; its default is the config model's.
  static func key(
    _ name: String, _ placeholder: String, _ section: String, _ key: String, help: String,
    words: [String]? = nil
  ) -> CommandOption {
    CommandOption(
      OptionSpec(
        name, .required(placeholder), defaultValue: CommandTable.configDefault(section, key),
        help: help, configKey: "\(section).\(key)", completion: words.map { .words($0) } ?? .none)
    ) { options, value in
      options.overrides.append(Override(option: name, section: section, key: key, value: value!))
    }
  }
}

extension CommandOption {
  /// A flag.
  static func flag(
    _ name: String, short: String? = nil, help: String,
    apply: @escaping @Sendable (inout Options) -> Void
  ) -> CommandOption {
    CommandOption(OptionSpec(name, short: short, help: help)) { options, _ in apply(&options) }
  }

  /// `--socket PATH`: a client's path to the daemon's socket.
  static func daemonSocket(set: @escaping @Sendable (inout Options, String) -> Void)
    -> CommandOption
  {
    CommandOption(
      OptionSpec(
        "--socket", .required("PATH"), defaultValue: "$XDG_RUNTIME_DIR/pulsebar.sock",
        help: "the daemon's socket", completion: .file)
    ) { options, value in set(&options, value!) }
  }

  /// `--config FILE`.
  static func config(
    help: String, defaultValue: String = "~/.config/pulsebar/config",
    set: @escaping @Sendable (inout Options, String) -> Void
  ) -> CommandOption {
    CommandOption(
      OptionSpec(
        "--config", .required("FILE"), defaultValue: defaultValue, help: help, completion: .file)
    ) { options, value in set(&options, value!) }
  }
}

/// Every output format's name, for completions.
private let formatNames = OutputFormat.allCases.map(\.rawValue)
/// Every channel mode's name, for completions.
private let channelNames = ChannelMode.allCases.map(\.rawValue)

// MARK: - run

extension RunOptions {
  /// `pulsebar run`'s options.
  package static let table: [CommandOption<RunOptions>] = [
    .config(help: "read this config file") { $0.configPath = $1 },
    .key(
      "--format", "FORMAT", "general", "format", help: "text, waybar, json or raw",
      words: formatNames),
    .key("--bars", "N", "general", "bars", help: "bars in all; in stereo half per channel"),
    .key("--fps", "N", "general", "fps", help: "frames per second"),
    .key(
      "--channels", "MODE", "general", "channels", help: "mono downmix, or stereo: left and right",
      words: channelNames),
    .key(
      "--input", "SOURCE", "input", "source",
      help:
        "auto (native PipeWire when it serves the audio, else libpulse), pulse, pulse:NAME, pipewire, file:PATH, fifo:PATH, stdin",
      words: ["auto", "pulse", "pulse:", "pipewire", "file:", "fifo:", "stdin"]),
    .flag("--offline", help: "file input: as fast as possible, then exit") { $0.offline = true },
    CommandOption(
      OptionSpec(
        "--socket", .optional("PATH"), defaultValue: "off",
        help: "serve clients on PATH or the usual socket", completion: .file)
    ) { options, value throws(UsageError) in
      options.socketPath = try checkedSocketPath(value ?? "")
    },
    .flag("--no-stdout", help: "write no frames on stdout") { $0.writeStdout = false },
    .flag("--foreground", help: "full-screen terminal view; q quits") { $0.foreground = true },
    .key("--seed", "N", "general", "seed", help: "seed of the bubbles' randomness"),
    .flag(
      "--verbose", short: "-v", help: "debug lines: sink switches, streams, clients, reloads"
    ) { $0.verbose = true },
  ]
}

// MARK: - ctl

extension ControlOptions {
  /// `pulsebar ctl`'s options (the action is its operand).
  package static let table: [CommandOption<ControlOptions>] = [
    CommandOption(
      OptionSpec(
        "--player", .required("NAME"), defaultValue: "the active player",
        help: "that MPRIS player (mpv matches mpv.instance123) rather than the active one")
    ) { options, value in options.player = value }
  ]
}

// MARK: - status

extension StatusOptions {
  /// `pulsebar status`' options.
  package static let table: [CommandOption<StatusOptions>] = [
    .flag("--json", help: "one json object, for scripts") { $0.json = true },
    CommandOption(
      OptionSpec(
        "--socket", .required("PATH"), defaultValue: "$XDG_RUNTIME_DIR/pulsebar.sock",
        help: "the daemon's socket", completion: .file)
    ) { options, value throws(UsageError) in options.socketPath = try checkedSocketPath(value!) },
  ]
}

// MARK: - listen

extension ListenOptions {
  /// `pulsebar listen`'s options.
  package static let table: [CommandOption<ListenOptions>] = [
    CommandOption(
      OptionSpec(
        "--socket", .required("PATH"), defaultValue: "$XDG_RUNTIME_DIR/pulsebar.sock",
        help: "the daemon's socket", completion: .file)
    ) { options, value throws(UsageError) in options.socketPath = try checkedSocketPath(value!) },
    CommandOption(
      OptionSpec(
        "--format", .required("FORMAT"), defaultValue: "the daemon's",
        help: "text, waybar, json or raw", completion: .words(formatNames))
    ) { options, value throws(UsageError) in
      guard let format = OutputFormat(rawValue: value!) else {
        throw UsageError("--format: expected text, waybar, json or raw, got '\(value!)'")
      }
      options.format = format
    },
    CommandOption(
      OptionSpec("--bars", .required("N"), defaultValue: "the daemon's", help: "bars to ask for")
    ) { options, value throws(UsageError) in
      options.bars = try wholeNumber(value!, option: "--bars", in: 1...512)
    },
    CommandOption(
      OptionSpec(
        "--fps", .required("N"), defaultValue: "the daemon's", help: "lines per second at most")
    ) { options, value throws(UsageError) in
      options.fps = try wholeNumber(value!, option: "--fps", in: 1...240)
    },
    .config(
      help: "a client's config: format, bars, fps, socket",
      defaultValue: "none"
    ) { $0.configPath = $1 },
  ]
}

// MARK: - overlay

extension OverlayOptions {
  /// `pulsebar overlay`'s options.
  package static let table: [CommandOption<OverlayOptions>] = [
    .daemonSocket { $0.socketPath = $1 },
    CommandOption(
      OptionSpec(
        "--port", .required("N"), defaultValue: "\(OverlayOptions.defaultPort)",
        help: "the page's port: http://127.0.0.1:N/")
    ) { options, value throws(UsageError) in
      options.port = UInt16(try wholeNumber(value!, option: "--port", in: 1...65535))
    },
    CommandOption(
      OptionSpec(
        "--listen", .required("ADDRESS"), defaultValue: OverlayOptions.loopback,
        help: "the IPv4 address to serve on; any but loopback is warned about")
    ) { options, value in options.address = value! },
  ]
}

// MARK: - bands

extension BandsOptions {
  /// `pulsebar bands`' options.
  package static let table: [CommandOption<BandsOptions>] = [
    .key("--bars", "N", "general", "bars", help: "bars in all; in stereo half per channel"),
    .key("--low", "HZ", "analysis", "low_cutoff", help: "lowest frequency shown"),
    .key("--high", "HZ", "analysis", "high_cutoff", help: "highest frequency shown"),
    .key(
      "--channels", "MODE", "general", "channels", help: "mono, or stereo: the bands twice",
      words: channelNames),
    CommandOption(
      OptionSpec(
        "--rate", .required("HZ"), defaultValue: "44100",
        help: "sample rate to lay the bands out for")
    ) { options, value throws(UsageError) in
      guard let rate = Int(value!), (8000...384_000).contains(rate) else {
        throw UsageError("--rate: expected a sample rate from 8000 to 384000, got '\(value!)'")
      }
      options.sampleRate = rate
    },
    .config(help: "read this config file") { $0.configPath = $1 },
  ]
}

/// `text` as a whole number in `range`, or the option's one-line error.
private func wholeNumber(_ text: String, option: String, in range: ClosedRange<Int>)
  throws(UsageError) -> Int
{
  guard let number = Int(text), range.contains(number) else {
    throw UsageError(
      "\(option): expected a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'"
    )
  }
  return number
}

/// `--socket PATH` checked as `socket.path` is (``SocketPathRule``).
func checkedSocketPath(_ path: String) throws(UsageError) -> String {
  if let problem = SocketPathRule.problem(path) { throw UsageError("--socket: \(problem)") }
  return path
}

import PulseBarCore
import PulseBarPlayers

/// pulsebar's option table: every command, every option with its value placeholder, default
/// and one line of help. The parser (``CommandLineParser``), `--help` (``HelpText``), the man
/// page (``ManPage``) and the shell completions (``ShellCompletion``) all read it.
package enum CommandTable {
  /// The version `pulsebar --version` prints and the man page names: the VERSION file's, which
  /// the Debian package takes too (VersionTests keeps them equal).
  package static let version = "0.1.0"

  /// The commands, `run` (the default) first.
  package static let commands: [CommandSpec] = [
    CommandSpec(
      name: "run", operands: "[OPTION]...",
      summary: "capture and stream frames (the default command)",
      options: RunOptions.table.map(\.spec), isDefault: true),
    CommandSpec(
      name: "listen", operands: "[OPTION]...",
      summary: "read a running daemon's socket and print its frames",
      options: ListenOptions.table.map(\.spec)),
    CommandSpec(
      name: "overlay", operands: "[OPTION]...",
      summary: "serve a running daemon's scene as a web page for OBS and browsers",
      options: OverlayOptions.table.map(\.spec)),
    CommandSpec(
      name: "check-config", operands: "[FILE]",
      summary: "validate a config file (none at the default path: all defaults)",
      options: []),
    CommandSpec(
      name: "bands", operands: "[OPTION]...",
      summary: "print each bar's lower and upper cutoff in Hz",
      options: BandsOptions.table.map(\.spec)),
    CommandSpec(
      name: "ctl", operands: "ACTION [VALUE] [OPTION]...",
      summary:
        "control the active MPRIS player; ACTION: \(ControlCommand.actionNames.joined(separator: ", ")) (within 1.2 s, whatever the players do)",
      options: ControlOptions.table.map(\.spec),
      actions: PlayerControl.Action.allCases.map {
        ActionSpec(name: $0.rawValue, operand: $0.operand, help: $0.help)
      }),
    CommandSpec(
      name: "status", operands: "[OPTION]...",
      summary:
        "ask the running daemon what it records and why, its players, clients, frame rate and CPU",
      options: StatusOptions.table.map(\.spec)),
  ]

  /// The commands that take an action as their first operand (`ctl`).
  static var commandsWithActions: [CommandSpec] { commands.filter { !$0.actions.isEmpty } }

  /// Options every command takes, and the first word may be.
  package static let general = [helpOption, versionOption]

  /// `-h`, `--help`: the whole help first, a command's after the command.
  package static let helpOption = OptionSpec(
    "--help", short: "-h", help: "show this help (a command's, after the command)")

  /// `-V`, `--version`.
  package static let versionOption = OptionSpec("--version", short: "-V", help: "show the version")

  /// The command called `name`.
  package static func command(named name: String) -> CommandSpec? {
    commands.first { $0.name == name }
  }

  /// The default shown for an option that sets `section.key`: the config model's own default.
  static func configDefault(_ section: String, _ key: String) -> String {
    ConfigKeys.setting(section: section, key: key)!.render(Configuration())
  }

  /// Files pulsebar reads or serves, with one line each.
  package static let files: [(path: String, what: String)] = [
    (
      "~/.config/pulsebar/config",
      "the config, or $XDG_CONFIG_HOME/pulsebar/config; none: all defaults. A regular UTF-8 file of at most 1 MiB; [section] and key = value lines, quotes around a whole value removed"
    ),
    (
      "$XDG_RUNTIME_DIR/pulsebar.sock",
      "the daemon's socket (run --socket, listen); [socket] path moves it"
    ),
    (
      "/usr/lib/systemd/user/pulsebar.service, pulsebar.socket",
      "the systemd user units of the packages (deb, Arch, RPM); the tarball's install.sh puts them in ~/.local/share/systemd/user (PREFIX/lib/systemd/user outside your home), make install in ~/.config/systemd/user"
    ),
    (
      "/usr/share/doc/pulsebar/examples",
      "the example config (pulsebar.conf) and bar snippets of the packages; ~/.local/share/doc/pulsebar/examples from the tarball's install.sh (PREFIX/share/doc/pulsebar/examples), config/examples in the source"
    ),
  ]

  /// Environment variables pulsebar reads, for the man page.
  package static let environment: [(name: String, what: String)] = [
    ("XDG_CONFIG_HOME", "where the config lives (else ~/.config)"),
    (
      "XDG_RUNTIME_DIR",
      "where the socket lives; unset, /run/user/UID is guessed and the guess is said on stderr"
    ),
    ("PULSE_SERVER", "the audio server to record from, as for every libpulse client"),
    ("JOURNAL_STREAM", "set by systemd: log lines then carry syslog priorities"),
    ("NOTIFY_SOCKET, LISTEN_FDS", "set by systemd: readiness, watchdog and socket activation"),
  ]

  /// Exit statuses and what each means.
  package static let exitStatuses: [(status: Int, what: String)] = [
    (0, "done"),
    (
      1,
      "a runtime failure (an audio file missing or malformed, a socket error, stdout closed or full)"
    ),
    (2, "a usage or config error (a missing audio server is none: it is waited for)"),
  ]

  /// Example command lines with one line each.
  package static let examples: [(command: String, what: String)] = [
    ("pulsebar", "the default sink's monitor as text frames on stdout"),
    ("pulsebar --format waybar --bars 16", "waybar's custom-module JSON on stdout"),
    ("pulsebar run --socket --no-stdout -v", "serve status bars on the socket, with debug lines"),
    ("pulsebar listen --format waybar --fps 30", "a waybar module's command"),
    (
      "pulsebar --input=file:song.flac --offline --format=json",
      "analyse a file as fast as possible"
    ),
    ("pulsebar overlay", "the overlay page at http://127.0.0.1:7455/ (an OBS browser source)"),
    ("pulsebar bands --bars 8", "each bar's lower and upper cutoff in Hz"),
    ("pulsebar check-config", "check ~/.config/pulsebar/config"),
    ("pulsebar ctl play-pause", "toggle the active player (a bar module's click)"),
    ("pulsebar ctl volume +5%", "the active player 5 % louder (a scroll up on the module)"),
    ("pulsebar ctl seek -10 --player mpv", "mpv 10 seconds back"),
    ("pulsebar status", "what the running daemon records, for which bars (first aid)"),
  ]
}

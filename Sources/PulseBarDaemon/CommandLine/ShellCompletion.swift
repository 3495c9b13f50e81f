/// bash, zsh and fish completions for pulsebar, rendered from the option table
/// (``CommandTable``). `completions/` holds them exactly (a test compares them and runs them);
/// re-record them on purpose with `make generated`.
package enum ShellCompletion {
  /// A shell pulsebar ships a completion for, with the file name it has in `completions/`.
  package enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish

    /// The file under `completions/`.
    package var fileName: String {
      switch self {
      case .bash: "pulsebar.bash"
      case .zsh: "_pulsebar"
      case .fish: "pulsebar.fish"
      }
    }
  }

  /// The completion script for `shell`.
  package static func render(_ shell: Shell) -> String {
    switch shell {
    case .bash: bash()
    case .zsh: zsh()
    case .fish: fish()
    }
  }

  /// The first lines of `shell`'s script.
  static func header(_ shell: Shell) -> String {
    (shell == .zsh ? "#compdef pulsebar\n" : "")
      + """
      # \(shell.rawValue) completion for pulsebar, generated from its option table in
      # Sources/PulseBarDaemon/CommandLine: do not edit; change the table, run `make generated`.

      """
  }

  /// The command names, `run` first.
  static var commandNames: [String] { CommandTable.commands.map(\.name) }

  /// Every option of `command`, the general ones (help) included.
  static func options(of command: CommandSpec) -> [OptionSpec] {
    command.options + [CommandTable.helpOption]
  }

  /// Every spelling of every option of `command`.
  static func names(of command: CommandSpec) -> [String] {
    options(of: command).flatMap { option in [option.short, option.name].compactMap { $0 } }
  }
}

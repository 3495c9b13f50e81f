/// One option of one command as every reader of the option table sees it: the parser, `--help`,
/// the man page and the shell completions. What the option does lives beside it, in
/// ``CommandOption``.
package struct OptionSpec: Sendable, Equatable {
  /// What follows the option's name.
  package enum Argument: Sendable, Equatable {
    /// A flag: `--opt`, and `--opt=VALUE` is an error.
    case none
    /// `--opt VALUE` or `--opt=VALUE`; the placeholder names the value (`N`, `FILE`).
    case required(String)
    /// `--opt`, `--opt VALUE` (when the next word does not start with `-`) or `--opt=VALUE`.
    case optional(String)

    /// The value's placeholder, `nil` for a flag.
    package var placeholder: String? {
      switch self {
      case .none: nil
      case .required(let name), .optional(let name): name
      }
    }
  }

  /// What a shell offers for the option's value.
  package enum Completion: Sendable, Equatable {
    /// Nothing (a number, or no value at all).
    case none
    /// File names.
    case file
    /// These words.
    case words([String])
  }

  /// The long name with its dashes: `--bars`.
  package var name: String
  /// The short name with its dash, `-v`, if the option has one.
  package var short: String?
  package var argument: Argument
  /// The value used when the option is not given, as `--help` shows it; `nil` for a flag.
  package var defaultValue: String?
  /// One line of what it does, lower case, no final period.
  package var help: String
  /// The config key the option overrides (`general.bars`), if it sets one.
  package var configKey: String?
  package var completion: Completion

  package init(
    _ name: String, short: String? = nil, _ argument: Argument = .none,
    defaultValue: String? = nil, help: String, configKey: String? = nil,
    completion: Completion = .none
  ) {
    self.name = name
    self.short = short
    self.argument = argument
    self.defaultValue = defaultValue
    self.help = help
    self.configKey = configKey
    self.completion = completion
  }

  /// True when `word` (without any `=VALUE`) names this option.
  package func isNamed(_ word: Substring) -> Bool {
    word == name || (short.map { word == $0 } ?? false)
  }

  /// `-v, --verbose` or `--bars N` or `--socket [PATH]`: the option as usage lines spell it.
  package var signature: String {
    var text = short.map { "\($0), " } ?? ""
    text += name
    switch argument {
    case .none: break
    case .required(let value): text += " \(value)"
    case .optional(let value): text += " [\(value)]"
    }
    return text
  }
}

/// An option of a command whose parsed options are `Options`: its row in the table and what
/// giving it does. The parser reads nothing else, so the documentation cannot drift from it.
package struct CommandOption<Options>: Sendable {
  package let spec: OptionSpec
  /// Applies the option's value (`nil` for a flag, or an optional value not given).
  let apply: @Sendable (inout Options, String?) throws(UsageError) -> Void

  init(
    _ spec: OptionSpec,
    apply: @escaping @Sendable (inout Options, String?) throws(UsageError) -> Void
  ) {
    self.spec = spec
    self.apply = apply
  }
}

/// One command (`run`, `listen`, …) as the documentation shows it.
package struct CommandSpec: Sendable, Equatable {
  package var name: String
  /// What follows the name in the usage line: `[OPTION]...` or `[FILE]`.
  package var operands: String
  /// One line of what it does.
  package var summary: String
  package var options: [OptionSpec]
  /// `run` is what `pulsebar` with no command does: its usage line shows `[run]`.
  package var isDefault = false
  /// The words its first operand may be (`ctl`'s actions), each with its value's placeholder
  /// and one line of help; the shells complete them.
  package var actions: [ActionSpec] = []

  /// The actions' names, separated by spaces (for the shells).
  package var actionWords: String { actions.map(\.name).joined(separator: " ") }

  /// `pulsebar [run] [OPTION]...`.
  package var usage: String {
    "pulsebar " + (isDefault ? "[\(name)]" : name) + (operands.isEmpty ? "" : " " + operands)
  }
}

/// One word a command takes as its first operand (`pulsebar ctl volume LEVEL`).
package struct ActionSpec: Sendable, Equatable {
  package var name: String
  /// The value that follows it (`LEVEL`), if it takes one.
  package var operand: String?
  /// One line of what it does, lower case, no final period.
  package var help: String

  /// `volume LEVEL`.
  package var signature: String { name + (operand.map { " \($0)" } ?? "") }
}

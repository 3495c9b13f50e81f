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

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

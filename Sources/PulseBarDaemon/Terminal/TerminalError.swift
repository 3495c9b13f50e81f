import PulseBarCore

/// Why the terminal view cannot start.
package struct TerminalError: Error, Equatable, CustomStringConvertible {
  /// One line for stderr, without the program name.
  package var message: String

  package var description: String { message }

  /// stdout is a pipe or file: `--foreground` needs a terminal.
  package static let notATerminal = TerminalError(
    message: "--foreground needs a terminal on stdout")
}

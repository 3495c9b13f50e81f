/// What `--help` prints, rendered from the option table (``CommandTable``): one line per option
/// with its default, then files, exit statuses and examples.
package enum HelpText {
  /// One paragraph of what pulsebar is, for `--help` and the man page.
  package static let description =
    "Turns what the desktop plays into spectrum bars for status bars: one daemon captures the monitor of the default output (a source carrying what it plays) and streams text frames to stdout or to any number of clients on a Unix socket."

  /// `pulsebar --help`, `pulsebar help`.
  package static func full() -> String {
    var text = usageLines()
    text += "\n\(wrap(description, width: 80))\n\nCommands:\n"
    let helpCommand = CommandSpec(
      name: "help", operands: "[COMMAND]", summary: "this help, or one command's", options: [])
    text += table((CommandTable.commands + [helpCommand]).map { ($0.name, $0.summary) })
    for command in CommandTable.commands where !command.actions.isEmpty {
      text += "\nActions of \(command.name):\n" + actionLines(command.actions)
    }
    for command in CommandTable.commands where !command.options.isEmpty {
      text += "\nOptions of \(command.name):\n" + optionLines(command.options)
    }
    text += "\nEvery command:\n" + optionLines(CommandTable.general)
    text += "\nAn option's value may follow it as one word: --bars=16.\n"
    text += "\nFiles:\n"
    for file in CommandTable.files { text += "  \(file.path)\n      \(file.what)\n" }
    text += "\nExit status:\n"
    text += table(CommandTable.exitStatuses.map { (String($0.status), $0.what) })
    text += "\nExamples:\n"
    for example in CommandTable.examples { text += "  \(example.command)\n      \(example.what)\n" }
    text += "\nThe manual: man pulsebar.\n"
    return text
  }

  /// `pulsebar COMMAND --help`, `pulsebar help COMMAND`.
  package static func command(_ command: CommandSpec) -> String {
    var text = "usage: \(command.usage)\n\(command.summary)\n"
    if !command.actions.isEmpty { text += "\nActions:\n" + actionLines(command.actions) }
    text += "\nOptions:\n"
    text += optionLines(command.options + [CommandTable.helpOption])
    text += "\nFiles, exit statuses and examples: pulsebar --help, or man pulsebar.\n"
    return text
  }

  /// The usage lines, `usage: pulsebar [run] [OPTION]...` first.
  static func usageLines() -> String {
    var lines = CommandTable.commands.map(\.usage)
    lines.append("pulsebar help [COMMAND] | --help | --version")
    return "usage: " + lines.joined(separator: "\n       ") + "\n"
  }

  /// One line per option: its signature, its help and its default.
  static func optionLines(_ options: [OptionSpec]) -> String {
    table(
      options.map { option in
        (option.signature, option.help + (option.defaultValue.map { " (default: \($0))" } ?? ""))
      })
  }

  /// One line per action: its name, its value's placeholder and its help.
  static func actionLines(_ actions: [ActionSpec]) -> String {
    table(actions.map { ($0.signature, $0.help) })
  }

  /// Two columns, the second aligned after the longest first.
  private static func table(_ rows: [(String, String)]) -> String {
    let width = rows.map(\.0.count).max() ?? 0
    var text = ""
    for (left, right) in rows {
      text += "  " + left + String(repeating: " ", count: width - left.count + 2) + right + "\n"
    }
    return text
  }

  /// `text` broken at spaces into lines of at most `width` characters.
  static func wrap(_ text: String, width: Int) -> String {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty, line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines.joined(separator: "\n")
  }
}

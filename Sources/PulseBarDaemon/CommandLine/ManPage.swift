/// The man page pulsebar(1), in roff, rendered from the option table (``CommandTable``) as
/// `--help` is. `man/pulsebar.1` is this text exactly (a test compares them and renders it with
/// `man -l`); re-record it on purpose with `make generated`.
package enum ManPage {
  /// The whole page.
  package static func render() -> String {
    var page = """
      .\\" pulsebar(1). Generated from the option table in Sources/PulseBarDaemon/CommandLine:
      .\\" do not edit; change the table and run `make generated`.
      .TH PULSEBAR 1 "" "pulsebar \(CommandTable.version)" "User Commands"
      .\\" No hyphenation, ragged right: option names and config keys stay whole.
      .nh
      .ad l
      .SH NAME
      pulsebar \\- spectrum bars of what the desktop plays, for status bars
      .SH SYNOPSIS

      """
    for (index, command) in CommandTable.commands.enumerated() {
      if index > 0 { page += ".br\n" }
      let name = command.isDefault ? "[\\fB\(command.name)\\fR]" : "\\fB\(command.name)\\fR"
      page += "\\fBpulsebar\\fR \(name) \(operands(command.operands))\n"
    }
    page += """
      .br
      \\fBpulsebar help\\fR [\\fICOMMAND\\fR] | \\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR
      .SH DESCRIPTION
      \(escape(HelpText.description))
      .PP
      Options named after a config key override the config file. Every option takes its value \
      as the next word or after an equals sign: \\fB\\-\\-bars=16\\fR.
      .SH COMMANDS

      """
    page += paragraphs(CommandTable.commands.map { ($0.name, $0.summary) })
    page += ".TP\n.B help\nthis help, or one command's (\\fBhelp\\fR \\fICOMMAND\\fR).\n"
    page += ".SH OPTIONS\n"
    for command in CommandTable.commands where !command.options.isEmpty {
      page += actions(of: command) + ".SS \"\(command.name)\"\n" + options(command.options)
    }
    page += ".SS \"every command\"\n" + options(CommandTable.general)
    page += """
      .SH SIGNALS
      SIGHUP or SIGUSR1 make \\fBpulsebar run\\fR read its config again (a bad one is logged and \
      the old one kept); SIGTERM and SIGINT end it with status 0, removing its socket; SIGUSR2 and \
      SIGALRM are ignored.
      .SH FILES

      """
    page += paragraphs(CommandTable.files.map { ($0.path, $0.what) }, font: "I")
    page += ".SH ENVIRONMENT\n"
    page += paragraphs(CommandTable.environment.map { ($0.name, $0.what) })
    page += ".SH EXIT STATUS\n"
    page += paragraphs(CommandTable.exitStatuses.map { (String($0.status), $0.what) })
    page += ".SH EXAMPLES\n"
    page += paragraphs(CommandTable.examples.map { ($0.command, $0.what) })
    page += """
      .SH SEE ALSO
      .BR systemctl (1),
      .BR journalctl (1),
      .BR pactl (1)

      """
    return page
  }

  /// One `.TP` paragraph per entry: its term in bold (or `font`), then its text as a sentence.
  private static func paragraphs(_ entries: [(term: String, text: String)], font: String = "B")
    -> String
  {
    entries.map { ".TP\n.\(font) \(escape($0.term))\n\(escape($0.text)).\n" }.joined()
  }

  /// A subsection of `command`'s actions, one `.TP` paragraph each (none without actions).
  private static func actions(of command: CommandSpec) -> String {
    guard !command.actions.isEmpty else { return "" }
    var text = ".SS \"\(command.name) ACTION\"\n"
    for action in command.actions {
      let value = action.operand.map { " \\fI\(escape($0))\\fR" } ?? ""
      text += ".TP\n\\fB\(escape(action.name))\\fR\(value)\n\(escape(action.help)).\n"
    }
    return text
  }

  /// One `.TP` paragraph per option: its signature, its help, its default and config key.
  private static func options(_ options: [OptionSpec]) -> String {
    var text = ""
    for option in options {
      var signature = option.short.map { "\\fB\(escape($0))\\fR, " } ?? ""
      signature += "\\fB\(escape(option.name))\\fR"
      switch option.argument {
      case .none: break
      case .required(let value): signature += " \\fI\(escape(value))\\fR"
      case .optional(let value): signature += " [\\fI\(escape(value))\\fR]"
      }
      var body = escape(option.help)
      if let value = option.defaultValue { body += "; default: \(escape(value))" }
      if let key = option.configKey { body += "; config key \\fB\(escape(key))\\fR" }
      text += ".TP\n\(signature)\n\(body).\n"
    }
    return text
  }

  /// `[OPTION]...` with each placeholder (a run of capitals) in italics.
  private static func operands(_ text: String) -> String {
    var result = ""
    var placeholder = ""
    for character in escape(text) + " " {
      if character.isUppercase {
        placeholder.append(character)
        continue
      }
      if !placeholder.isEmpty { result += "\\fI\(placeholder)\\fR" }
      placeholder = ""
      result.append(character)
    }
    return String(result.dropLast())
  }

  /// `text` safe in roff: backslashes and minus signs escaped, no control character at a
  /// line's start.
  static func escape(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "\\": result += "\\e"
      case "-": result += "\\-"
      default: result.append(character)
      }
    }
    if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
    return result
  }
}

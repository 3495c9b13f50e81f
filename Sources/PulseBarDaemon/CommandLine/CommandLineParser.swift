import PulseBarCore
import PulseBarPlayers

/// Parses `pulsebar`'s arguments (without the program name) from the option table
/// (``CommandTable``): every option as `--opt VALUE` or `--opt=VALUE`, `-h`/`--help` after any
/// command, `help [COMMAND]`.
package enum CommandLineParser {
  package static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    var words = arguments[...]
    switch words.first {
    case "--help", "-h": return .help(command: nil)
    case "help": return try parseHelp(words.dropFirst())
    case "--version", "-V": return .version
    case "listen":
      let rest = words.dropFirst()
      if asksForHelp(rest) { return .help(command: "listen") }
      return .listen(try parse(rest, into: ListenOptions(), ListenOptions.table, command: "listen"))
    case "overlay":
      let rest = words.dropFirst()
      if asksForHelp(rest) { return .help(command: "overlay") }
      return .overlay(
        try parse(rest, into: OverlayOptions(), OverlayOptions.table, command: "overlay"))
    case "check-config":
      let rest = words.dropFirst()
      if asksForHelp(rest) { return .help(command: "check-config") }
      guard rest.count <= 1 else { throw UsageError("check-config takes at most one FILE") }
      if let first = rest.first, first.hasPrefix("-") {
        throw UsageError("check-config: unknown option '\(first)'")
      }
      return .checkConfig(path: rest.first)
    case "bands":
      let rest = words.dropFirst()
      if asksForHelp(rest) { return .help(command: "bands") }
      return .bands(try parse(rest, into: BandsOptions(), BandsOptions.table, command: "bands"))
    case "ctl":
      let rest = words.dropFirst()
      if asksForHelp(rest) { return .help(command: "ctl") }
      return .control(try parseControl(rest))
    case "status":
      let rest = words.dropFirst()
      if asksForHelp(rest) { return .help(command: "status") }
      return .status(try parse(rest, into: StatusOptions(), StatusOptions.table, command: "status"))
    case "run":
      words = words.dropFirst()
    default:
      break
    }
    if asksForHelp(words) { return .help(command: "run") }
    return .run(try parse(words, into: RunOptions(), RunOptions.table, command: "run"))
  }

  /// `ctl ACTION [VALUE] [--player NAME]`: the first operand is the action, the word after an
  /// action that takes a value is its value (even `-10` or `-5%`; not a `--` option), the rest
  /// go through the table.
  private static func parseControl(_ words: ArraySlice<String>) throws(UsageError)
    -> ControlOptions
  {
    var action: PlayerControl.Action?
    var operand: String?
    var options: [String] = []
    var remaining = words
    let actions = ControlCommand.actionNames.joined(separator: ", ")
    while let word = remaining.popFirst() {
      if word.hasPrefix("-") {
        options.append(word)
        // A separate value belongs to the option, never to the action.
        if !word.contains("="), let next = remaining.first, !next.hasPrefix("-") {
          options.append(remaining.removeFirst())
        }
      } else if action == nil, let parsed = PlayerControl.Action(rawValue: word) {
        action = parsed
        if parsed.operand != nil, let next = remaining.first, !next.hasPrefix("--") {
          operand = remaining.removeFirst()
        }
      } else {
        throw UsageError("ctl: unexpected '\(word)' (actions: \(actions))")
      }
    }
    guard let action else { throw UsageError("ctl needs an action: \(actions)") }
    let request: PlayerControl.Request
    do {
      request = try PlayerControl.Request(action, operand: operand)
    } catch {
      throw UsageError("ctl: \(error)")
    }
    return try parse(
      options[...], into: ControlOptions(request: request), ControlOptions.table, command: "ctl")
  }

  /// `help` or `help COMMAND`.
  private static func parseHelp(_ words: ArraySlice<String>) throws(UsageError) -> Command {
    guard words.count <= 1 else { throw UsageError("help takes at most one COMMAND") }
    guard let name = words.first else { return .help(command: nil) }
    guard CommandTable.command(named: name) != nil else {
      let names = CommandTable.commands.map(\.name).joined(separator: ", ")
      throw UsageError("help: no command '\(name)' (commands: \(names))")
    }
    return .help(command: name)
  }

  /// `-h` or `--help` anywhere after the command asks for its help, whatever else is there.
  private static func asksForHelp(_ words: ArraySlice<String>) -> Bool {
    words.contains { CommandTable.helpOption.isNamed($0[...]) }
  }

  /// Applies each option in `words` to `options` through `table`.
  private static func parse<Options>(
    _ words: ArraySlice<String>, into options: Options, _ table: [CommandOption<Options>],
    command: String
  ) throws(UsageError) -> Options {
    var options = options
    var remaining = words
    while let word = remaining.popFirst() {
      // `--opt=VALUE`: only long options take their value in the same word.
      var name = word[...]
      var attached: String?
      if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
        name = word[..<equals]
        attached = String(word[word.index(after: equals)...])
      }
      guard let option = table.first(where: { $0.spec.isNamed(name) }) else {
        throw unknown(String(name), command: command, options: table.map(\.spec.name))
      }
      var value = attached
      switch option.spec.argument {
      case .none:
        if attached != nil { throw UsageError("\(name) takes no value") }
      case .required:
        if value == nil { value = remaining.popFirst() }
        guard value != nil else { throw UsageError("\(name) needs a value") }
      case .optional:
        if value == nil, let next = remaining.first, !next.hasPrefix("-") {
          value = remaining.removeFirst()
        }
      }
      try option.apply(&options, value)
    }
    return options
  }

  /// Says what is wrong with `argument`, with the nearest command or option of `command`.
  private static func unknown(_ argument: String, command: String, options: [String])
    -> UsageError
  {
    guard argument.hasPrefix("-") else {
      // `pulsebar lisen`: a mistyped command reaches run as an argument.
      let commands = CommandTable.commands.map(\.name) + ["help"]
      return UsageError(
        Suggestion.appending(
          to: "unexpected argument '\(argument)' (see pulsebar --help)", for: argument,
          among: command == "run" ? commands : []))
    }
    // run's options and bands' overlap; the ones only bands has are a common slip.
    if command == "run", BandsOptions.table.contains(where: { $0.spec.isNamed(argument[...]) }) {
      return UsageError("unknown option '\(argument)' for run (it belongs to 'pulsebar bands')")
    }
    return UsageError(
      Suggestion.appending(
        to: "unknown option '\(argument)' for \(command) (see pulsebar --help)", for: argument,
        among: options))
  }
}

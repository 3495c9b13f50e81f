// MARK: - fish

extension ShellCompletion {
  /// `complete` lines for fish: command names, then each command's options under a condition
  /// that says which command is on the line (`run`'s when none is).
  static func fish() -> String {
    let all = (commandNames + ["help"]).joined(separator: " ")
    let others = (commandNames.filter { $0 != "run" } + ["help"]).joined(separator: " ")
    var script = header(.fish)
    script += "complete -c pulsebar -f\n"
    let noCommand = "-n 'not __fish_seen_subcommand_from \(all)'"
    for command in CommandTable.commands {
      script +=
        "complete -c pulsebar \(noCommand) -a \(command.name) -d \(fishQuoted(command.summary))\n"
    }
    script +=
      "complete -c pulsebar \(noCommand) -a help -d \(fishQuoted("this help, or one command's"))\n"
    script +=
      "complete -c pulsebar -n __fish_use_subcommand \(fishFlags(CommandTable.versionOption))\n"
    for command in CommandTable.commands {
      let condition =
        command.isDefault
        ? "-n 'not __fish_seen_subcommand_from \(others)'"
        : "-n '__fish_seen_subcommand_from \(command.name)'"
      script += "# \(command.name)\n"
      for option in options(of: command) {
        script += "complete -c pulsebar \(condition) \(fishFlags(option))\n"
      }
      if command.operands == "[FILE]" { script += "complete -c pulsebar \(condition) -F\n" }
      // Its actions, until one is on the line.
      let noAction = "\(condition.dropLast()); and not __fish_seen_subcommand_from"
      for action in command.actions {
        script += "complete -c pulsebar \(noAction) \(command.actionWords)' -a \(action.name) "
        script += "-d \(fishQuoted(action.help))\n"
      }
    }
    script += "# help\n"
    script += "complete -c pulsebar -n '__fish_seen_subcommand_from help' -a "
    script += fishQuoted(commandNames.joined(separator: " ")) + "\n"
    return script
  }

  /// `-s v -l verbose -d 'help'`, with `-r`/`-x`/`-F` and `-a 'words'` for the value.
  private static func fishFlags(_ option: OptionSpec) -> String {
    var flags = option.short.map { "-s \($0.dropFirst()) " } ?? ""
    flags += "-l \(option.name.dropFirst(2))"
    if case .required = option.argument {
      switch option.completion {
      case .none: flags += " -x"
      case .file: flags += " -r -F"
      case .words(let words): flags += " -x -a \(fishQuoted(words.joined(separator: " ")))"
      }
    }
    return flags + " -d \(fishQuoted(option.help))"
  }

  /// `text` single-quoted for fish.
  private static func fishQuoted(_ text: String) -> String {
    var result = "'"
    for character in text {
      if character == "'" || character == "\\" { result += "\\" }
      result.append(character)
    }
    return result + "'"
  }
}

// MARK: - zsh

extension ShellCompletion {
  /// `_pulsebar` for zsh's `fpath`: command names with their summaries, then `_arguments` with
  /// each option's help, its value's placeholder and what completes it.
  static func zsh() -> String {
    let helpCommand = "help:" + zshQuoted("this help, or one command's")
    var script = header(.zsh)
    script += """
      _pulsebar() {
        local -a commands
        commands=(

      """
    for command in CommandTable.commands {
      script += "    \(command.name):\(zshQuoted(command.summary))\n"
    }
    script += """
          \(helpCommand)
        )
        if (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then
          _describe -t commands 'pulsebar command' commands
          return
        fi
        local command=run
        local -a first
        case $words[2] in
          (\(commandNames.joined(separator: "|"))|help)
            command=$words[2]
            shift words
            (( CURRENT-- ))
            ;;
          (*)
            first=(\(zshSpec(CommandTable.versionOption, exclusive: true)))
            ;;
        esac
        case $command in

      """
    for command in CommandTable.commands {
      var specs = options(of: command).map { zshSpec($0) }
      if command.operands == "[FILE]" { specs.append("'1::FILE:_files'") }
      if !command.actions.isEmpty { specs.append("'1:ACTION:(\(command.actionWords))'") }
      script += "    (\(command.name))\n      _arguments -s $first \\\n"
      script += specs.map { "        " + $0 }.joined(separator: " \\\n") + "\n      ;;\n"
    }
    script += """
          (help)
            _arguments '1::command:(\(commandNames.joined(separator: " ")))'
            ;;
        esac
      }

      _pulsebar "$@"

      """
    return script
  }

  /// One `_arguments` spec: `'--bars=[help]:N: '`, `'(-v --verbose)'{-v,--verbose}'[help]'`.
  private static func zshSpec(_ option: OptionSpec, exclusive: Bool = false) -> String {
    let description = "[" + zshEscaped(option.help) + "]"
    var spec: String
    if let short = option.short {
      let group = exclusive ? "(- *)" : "(\(short) \(option.name))"
      spec = "'\(group)'{\(short),\(option.name)}'\(description)"
    } else {
      spec = "'\(option.name)"
      if option.argument != .none { spec += "=" }
      spec += description
    }
    let action: String
    switch option.completion {
    case .none: action = " "
    case .file: action = "_files"
    case .words(let words): action = "(" + words.joined(separator: " ") + ")"
    }
    switch option.argument {
    case .none: break
    case .required(let value): spec += ":\(value):\(action)"
    case .optional(let value): spec += "::\(value):\(action)"
    }
    return spec + "'"
  }

  /// `text` for inside a single-quoted `_arguments` description: brackets and colons escaped.
  private static func zshEscaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "[", "]", ":", "\\": result += "\\" + String(character)
      case "'": result += "'\\''"
      default: result.append(character)
      }
    }
    return result
  }

  /// `text` single-quoted for zsh.
  private static func zshQuoted(_ text: String) -> String {
    "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
      + "'"
  }
}

// MARK: - bash

extension ShellCompletion {
  /// `_pulsebar` for `complete -F`: command names first, then the command's options, and for
  /// an option's value (`--opt VALUE` or `--opt=VALUE`) its words or file names.
  static func bash() -> String {
    let commands = commandNames.joined(separator: " ")
    let version = CommandTable.versionOption
    let versionNames = [version.short, version.name].compactMap { $0 }.joined(separator: " ")
    var script = header(.bash)
    script += """
      _pulsebar() {
          local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
          # --opt=VALUE: bash splits the word at '=' (COMP_WORDBREAKS).
          if [[ $cur == = ]]; then
              cur=
          elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
              prev=${COMP_WORDS[COMP_CWORD-2]}
          fi
          local command=run
          case ${COMP_WORDS[1]} in
              \(commands.split(separator: " ").joined(separator: "|"))|help) ((COMP_CWORD > 1)) && command=${COMP_WORDS[1]} ;;
          esac
          if ((COMP_CWORD == 1)) && [[ $cur != -* ]]; then
              COMPREPLY=($(compgen -W "\(commands) help" -- "$cur"))
              return
          fi
          case $command:$prev in

      """
    script += CommandTable.commands.flatMap { command in
      command.options.compactMap { bashValueCase(command: command.name, option: $0) }
    }.map { "        \($0)\n" }.joined()
    script += """
          esac
          local options
          case $command in
              help)
                  ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "\(commands)" -- "$cur"))
                  return ;;
              check-config)
                  if [[ $cur != -* ]]; then
                      compopt -o filenames 2>/dev/null
                      COMPREPLY=($(compgen -f -- "$cur"))
                      return
                  fi ;;
      \(CommandTable.commandsWithActions.map(\.bashActionCase).joined())
          esac
          case $command in

      """
    script += CommandTable.commands.map {
      "        \($0.name)) options=\"\(names(of: $0).joined(separator: " "))\" ;;\n"
    }.joined()
    script += """
          esac
          # --version only as the first word.
          ((COMP_CWORD == 1)) && options+=" \(versionNames)"
          COMPREPLY=($(compgen -W "$options" -- "$cur"))
      }
      complete -F _pulsebar pulsebar

      """
    return script
  }

  /// The `case` line completing `option`'s value, or `nil` for a flag.
  private static func bashValueCase(command: String, option: OptionSpec) -> String? {
    let pattern = "\(command):\(option.name))"
    let reply: String
    switch option.completion {
    case .none: reply = "return"
    case .words(let words):
      reply = "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return"
    case .file:
      reply = "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")); return"
    }
    switch option.argument {
    case .none: return nil
    case .required: return "\(pattern) \(reply) ;;"
    // An optional value: a word starting with '-' is the next option instead.
    case .optional: return "\(pattern) [[ $cur == -* ]] || { \(reply); } ;;"
    }
  }
}

extension CommandSpec {
  /// The bash `case` line completing the command's action, its first operand.
  fileprivate var bashActionCase: String {
    "        \(name)) ((COMP_CWORD == 2)) && [[ $cur != -* ]] && "
      + "{ COMPREPLY=($(compgen -W \"\(actionWords)\" -- \"$cur\")); return; } ;;\n"
  }
}

extension ConfigKeys {
  /// The text of `config/pulsebar.conf`: every key with its default and one line of why.
  ///
  /// The shipped file is this text exactly (a test compares them), so the
  /// reference can never drift from the parser.
  package static func defaultFileText() -> String {
    let defaults = Configuration()
    var text = """
      # pulsebar configuration: every key with its default.
      # pulsebar reads it from ~/.config/pulsebar/config ($XDG_CONFIG_HOME/pulsebar/config when
      # set); edit what you need there. Keys left out keep their defaults, and command-line
      # options override this file. A value is everything after '='; quotes around all of it
      # are removed ("…" or '…', keeping the spaces inside). Check a file with:
      # pulsebar check-config FILE

      """
    var section = ""
    for setting in all {
      if setting.section != section {
        section = setting.section
        text += "\n[\(section)]\n"
      }
      text += "# \(setting.help)\n\(setting.key) = \(setting.render(defaults))\n"
    }
    return text
  }
}

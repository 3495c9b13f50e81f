import PulseBarCore

/// What `pulsebar listen` reads of a config file: the keys a client chooses
/// (``clientKeys``) and nothing else, so a typo or a bad value in a key only the daemon reads
/// cannot make the bar's module vanish.
///
/// Every other line is blanked before the file is parsed (line numbers stay, so an error in a
/// key listen does read still names its `FILE:LINE`), and the keys blanked are named, for the
/// one warning a client's own file gets.
package enum ListenConfig {
  /// The config keys a client chooses: what it asks the daemon for (format, bars, fps), what it
  /// shows while the daemon is away, and where the socket is. Every other key configures the
  /// daemon (`pulsebar run`): a listener cannot change how the daemon analyses or renders.
  package static let clientKeys = [
    "general.format", "general.bars", "general.fps", "output.offline_text", "socket.path",
  ]

  /// The keys that shape the daemon's text line, which listen reads from the daemon's file to
  /// work out the line's width before the daemon sends one (``renderingConfiguration(_:file:)``):
  /// the templates, the glyphs, the bar and bubble counts and the icons.
  package static let renderingKeys = [
    "general.bars", "general.channels", "output.text", "output.text_playing",
    "output.text_paused", "output.text_stopped", "output.markup", "output.bar_glyphs",
    "output.morph_glyphs", "output.title_width", "bubbles.glyphs", "bubbles.max",
    "players.icons", "players.default_icon",
  ]

  /// `text` (the contents of `file`) parsed for its client keys alone: the configuration, the
  /// client keys it sets, and the other `section.key` names it has (in file order).
  package static func parse(_ text: String, file: String) throws(ConfigError) -> (
    configuration: Configuration, keys: [String], ignored: [String]
  ) {
    let (clientText, ignored) = lines(of: text, keeping: clientKeys)
    let parsed = try ConfigParser.parseListingKeys(clientText, file: file)
    return (parsed.configuration, parsed.keys, ignored)
  }

  /// `text` (the daemon's file) parsed for its ``renderingKeys`` alone, or `nil` when one of
  /// them is bad: the daemon then says so in its own log, and listen falls back to the width it
  /// last saw. Never an error of listen's: these keys configure the daemon.
  package static func renderingConfiguration(_ text: String, file: String) -> Configuration? {
    let (renderingText, _) = lines(of: text, keeping: renderingKeys)
    return try? ConfigParser.parseListingKeys(renderingText, file: file).configuration
  }

  /// `text` with every line but `keys` and their section headers blank, and the names of the
  /// keys blanked.
  static func lines(of text: String, keeping keys: [String]) -> (text: String, ignored: [String]) {
    let sections = Set(keys.map { String($0.prefix { $0 != "." }) })
    var body = Substring(text)
    if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
    var section: String?
    var kept: [Substring] = []
    var ignored: [String] = []
    // As the parser splits: `\r\n` is one Character.
    for line in body.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    {
      let trimmed = String(line).trimmingWhitespace()
      if trimmed.hasPrefix("[") {
        let name = trimmed.hasSuffix("]") ? String(trimmed.dropFirst().dropLast()) : ""
        section = name.trimmingWhitespace()
        kept.append(sections.contains(section ?? "") ? line : "")
        continue
      }
      guard !trimmed.hasPrefix("#"), !trimmed.hasPrefix(";"),
        let equals = trimmed.firstIndex(of: "="), let section
      else {
        kept.append("")
        continue
      }
      let name = section + "." + String(trimmed[..<equals]).trimmingWhitespace()
      if keys.contains(name) {
        kept.append(line)
      } else {
        kept.append("")
        if !ignored.contains(name) { ignored.append(name) }
      }
    }
    return (kept.joined(separator: "\n"), ignored)
  }

  /// The one warning line for the keys listen ignores in its own config file, or `nil`.
  package static func ignoredKeysWarning(file: String, keys: [String]) -> String? {
    guard !keys.isEmpty else { return nil }
    return
      "pulsebar listen: \(file): ignoring daemon-side keys (they configure `pulsebar run`): \(keys.joined(separator: ", "))\n"
  }
}

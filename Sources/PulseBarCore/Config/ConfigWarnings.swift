/// Settings that are valid but probably not what the user meant: a warning each, with
/// `FILE:LINE`, while the file still loads.
package enum ConfigWarnings {
  /// Keys kept for old configs, and what to write instead. Each warns when it does something
  /// (the shipped reference lists `title_width = 0`, which does nothing, so a copy of it is
  /// quiet).
  package static let deprecated: [String: (inert: String, instead: String)] = [
    "output.title_width": ("0", "put {title:N} in output.text (or text_playing, …) instead")
  ]

  /// The warning (`warning: …`) `value` (unquoted) for the key `name` (`section.key`) earns, or `nil`.
  package static func warning(for name: String, value: String) -> String? {
    if let deprecated = deprecated[name], value != deprecated.inert {
      return "warning: \(name) is deprecated: \(deprecated.instead)"
    }
    if name == "output.text" && value.isEmpty {
      return
        "warning: output.text is empty: a state without a text_<state> of its own shows an empty line (leave the key out for the default, {glyph} {bars} {bubbles})"
    }
    if textKeys.contains(name), let field = unboundedField(in: value) {
      return
        "warning: \(name) shows {\(field)} without a width: the module is as wide as each value, known only once a line is drawn (a bar started before the daemon is narrow); give it one, e.g. {\(field):24}"
    }
    return nil
  }

  /// The keys whose template is the text line (not the tooltip).
  static let textKeys: Set<String> = [
    "output.text", "output.text_playing", "output.text_paused", "output.text_stopped",
  ]

  /// The first field of unbounded text without a width in `template` (`title`, `artist`,
  /// `album`, `lyric`, `player`, `source`), or `nil`.
  package static func unboundedField(in template: String) -> String? {
    guard let parsed = try? Template(parsing: template) else { return nil }
    let unbounded: Set<Template.Field> = [.title, .artist, .album, .lyric, .player, .source]
    return parsed.items.first { unbounded.contains($0.field) && $0.width == nil }?.field.rawValue
  }
}

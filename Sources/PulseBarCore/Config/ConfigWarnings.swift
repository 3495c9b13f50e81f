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
    return nil
  }
}

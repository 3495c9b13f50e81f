/// `players.icons` and `players.default_icon`: the text `{player_icon}` shows for a player.
///
/// Names are bus-name suffixes after `org.mpris.MediaPlayer2.`, matched as prefixes as in
/// `players.ignore` (``PlayerPreference``): `firefox` covers `firefox.instance_1_84`. The first
/// entry that matches wins; a player none matches gets ``fallback``. The default fallback,
/// `◉`, is one cell in DejaVu Sans Mono and Noto Sans Mono (StatusBarGlyphTests); brand icons
/// (Nerd Font or Font Awesome code points) need a symbol font in the bar's font list.
package struct PlayerIcons: Sendable, Equatable {
  /// One `name:icon` of `players.icons`.
  package struct Entry: Sendable, Equatable {
    package var name: String
    package var icon: String

    package init(name: String, icon: String) {
      self.name = name
      self.icon = icon
    }
  }

  package var entries: [Entry]
  /// The icon of a player no entry names (`players.default_icon`). An empty icon, here or in
  /// an entry, drops the field for that player.
  package var fallback: String

  /// The default `players.default_icon`.
  package static let defaultFallback = "◉"

  package init(entries: [Entry] = [], fallback: String = PlayerIcons.defaultFallback) {
    self.entries = entries
    self.fallback = fallback
  }

  /// The icon of `player` (its bus name after `org.mpris.MediaPlayer2.`, or the whole name).
  package func icon(for player: String) -> String {
    let prefix = PlayerPreference.busNamePrefix
    let name = player.hasPrefix(prefix) ? player.dropFirst(prefix.count) : player[...]
    return entries.first { name.hasPrefix($0.name) }?.icon ?? fallback
  }
}

// MARK: - The config keys

extension PlayerIcons {
  /// The most cells an icon may take: it sits in every line, so a long one is a mistake.
  package static let maximumIconCells = 4

  /// `icon` as a config value: no control character (``UntrustedText/isControl(_:)``), at
  /// most ``maximumIconCells`` cells. Empty is allowed: that player shows none.
  static func checkedIcon(_ icon: String) throws(ValueError) -> String {
    if let bad = icon.unicodeScalars.first(where: { UntrustedText.isControl($0.value) }) {
      let code = String(bad.value, radix: 16, uppercase: true)
      throw ValueError(
        "icons must be printable, got U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code)"
      )
    }
    let cells = TextCells.width(of: icon)
    guard cells <= maximumIconCells else {
      throw ValueError("icon '\(icon)' is \(cells) cells; at most \(maximumIconCells)")
    }
    return icon
  }

  /// `players.icons`: `name:icon` pairs separated by commas (empty: none).
  static let iconsSetting = Setting(
    section: "players", key: "icons",
    help:
      "name:icon pairs, e.g. spotify:S, mpv:M (bus names after org.mpris.MediaPlayer2., as prefixes), for {player_icon}; brand glyphs need a symbol font",
    apply: { text, configuration throws(ValueError) in
      var entries: [Entry] = []
      for part in text.split(separator: ",") {
        let item = part.trimmingWhitespace()
        guard let colon = item.firstIndex(of: ":") else {
          throw ValueError("expected name:icon pairs separated by commas, got '\(item)'")
        }
        let name = String(item[..<colon]).trimmingWhitespace()
        guard !name.isEmpty, !name.contains(" "),
          !name.unicodeScalars.contains(where: { UntrustedText.isControl($0.value) })
        else { throw ValueError("expected a player name before ':', got '\(item)'") }
        let icon = String(item[item.index(after: colon)...]).trimmingWhitespace()
        entries.append(Entry(name: name, icon: try checkedIcon(icon)))
      }
      configuration.playerIcons.entries = entries
    },
    render: { $0.playerIcons.entries.map { "\($0.name):\($0.icon)" }.joined(separator: ", ") })

  /// `players.default_icon`.
  static let fallbackSetting = Setting(
    section: "players", key: "default_icon",
    help:
      "{player_icon} of a player icons does not name (one cell in DejaVu and Noto); empty: none",
    apply: { text, configuration throws(ValueError) in
      configuration.playerIcons.fallback = try checkedIcon(text)
    }, render: { $0.playerIcons.fallback })
}

/// A line template: `output.text` (default `{glyph} {bars} {bubbles}`), the per-state
/// `output.text_playing`/`_paused`/`_stopped`, and `output.tooltip`.
///
/// Fields are `{name}` or `{name:N}` (N display cells: cut with "…", padded with figure spaces,
/// so the field's width is fixed); `{{` and `}}` are literal braces. A field with no value
/// (no player, no title, no bubble area) is dropped cleanly, as the waybar tooltip always did:
/// - brackets that hug a field (`({player})`, `[{album}]`) go with it;
/// - between two fields that are left, the *lightest* separator of the ones that stood between
///   them is kept (the one with the fewest visible characters; the first on a tie). So the
///   default tooltip `{state} · {artist} — {title} ({player})` with no artist gives
///   `Playing · Title (mpv)`, with no player at all `Playing`;
/// - text before the first field and after the last always stays.
/// A field with a width is never dropped: it pads, so the line keeps its width.
/// `{title:24:scroll}` scrolls a value wider than its width instead of cutting it (a
/// ``Marquee``): the player, title, artist, album and source fields can.
///
/// Parsed once per configuration (a bad template is a config error with its column); rendered
/// per frame by ``TemplateRenderer`` with no allocation.
package struct Template: Sendable, Equatable {
  /// What a `{name}` stands for.
  package enum Field: String, Sendable, CaseIterable {
    case glyph, bars, bubbles, state, player, title, artist, album, position, length, progress,
      source, lyric
    /// The player's `Volume` as a percentage, `40%`.
    case volume
    /// `players.icons`' icon for the player (``PlayerIcons``).
    case playerIcon = "player_icon"
  }

  /// One field with its width and the brackets that hug it.
  package struct Item: Sendable, Equatable {
    package var field: Field
    /// Display cells, or `nil` for the value's own width.
    package var width: Int?
    /// `:scroll`: a value wider than ``width`` scrolls through it (``Marquee``).
    package var scrolls = false
    package var opener = ""
    package var closer = ""
  }

  /// Text before the first field.
  package let prefix: String
  package let items: [Item]
  /// `separators[i]` stands between `items[i]` and `items[i + 1]`.
  package let separators: [String]
  /// Text after the last field.
  package let suffix: String

  /// The default text line: today's glyph, bars and bubble area.
  package static let defaultText = "{glyph} {bars} {bubbles}"
  /// The default waybar tooltip.
  package static let defaultTooltip = "{state} · {artist} — {title} ({player})"
  /// The widest a field may be asked to be.
  package static let widthRange = 1...500

  private static let openers: Set<Character> = ["(", "[", "«", "<"]
  private static let closers: Set<Character> = [")", "]", "»", ">"]

  /// Parses `text`; an unknown field, an unclosed `{`, a bad width or a control character
  /// (a line break, a tab, an escape: they would land in every line) throws with its column.
  package init(parsing text: String) throws(TemplateError) {
    for (offset, character) in text.enumerated() {
      guard
        let control = character.unicodeScalars.first(where: { UntrustedText.isControl($0.value) })
      else { continue }
      let code = String(control.value, radix: 16, uppercase: true)
      throw TemplateError(
        column: offset + 1,
        message:
          "control character U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code) in a template"
      )
    }
    var literals: [String] = [""]
    var fields: [(Field, Int?, Bool)] = []
    var characters = Array(text)[...]
    var column = 1
    while let character = characters.popFirst() {
      defer { column += 1 }
      if character == "}" {
        if characters.first == "}" {
          characters.removeFirst()
          column += 1
        }
        literals[literals.count - 1].append("}")
        continue
      }
      guard character == "{" else {
        literals[literals.count - 1].append(character)
        continue
      }
      if characters.first == "{" {
        characters.removeFirst()
        column += 1
        literals[literals.count - 1].append("{")
        continue
      }
      guard let close = characters.firstIndex(of: "}") else {
        throw TemplateError(column: column, message: "'{' is not closed")
      }
      let inside = String(characters[..<close])
      characters = characters[(close + 1)...]
      fields.append(try Self.field(inside, column: column + 1))
      literals.append("")
      column += inside.count + 1
    }
    (prefix, items, separators, suffix) = Self.split(literals: literals, fields: fields)
  }

  /// The template for an already validated text; a bad one (a configuration made in code) falls
  /// back to `fallback`.
  package init(validated text: String, fallback: String) {
    self = (try? Template(parsing: text)) ?? (try! Template(parsing: fallback))
  }

  /// `name`, `name:width` or `name:width:scroll` at `column` (where the name starts).
  private static func field(_ inside: String, column: Int) throws(TemplateError) -> (
    Field, Int?, Bool
  ) {
    var parts = inside.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
    let name = String(parts[0])
    guard let field = Field(rawValue: name) else {
      let names = Field.allCases.map { "{\($0.rawValue)}" }.joined(separator: " ")
      throw TemplateError(column: column, message: "unknown field {\(name)}; expected \(names)")
    }
    guard parts.count >= 2 else { return (field, nil, false) }
    var scrolls = false
    if parts.count == 3 {
      let optionColumn = column + name.count + parts[1].count + 2
      guard parts[2] == "scroll" else {
        throw TemplateError(
          column: optionColumn,
          message: "unknown option '\(parts[2])' for {\(name)}; expected scroll")
      }
      guard field.canScroll else {
        throw TemplateError(
          column: optionColumn,
          message: "{\(name)} cannot scroll; {player} {title} {artist} {album} {source} can")
      }
      scrolls = true
      parts.removeLast()
    }
    let widthColumn = column + name.count + 1
    guard let width = Int(parts[1]), widthRange.contains(width) else {
      throw TemplateError(
        column: widthColumn,
        message:
          "bad width '\(parts[1])' for {\(name)}: expected \(widthRange.lowerBound)…\(widthRange.upperBound) cells"
      )
    }
    return (field, width, scrolls)
  }

  /// The literals around the fields as prefix, separators and suffix, with the brackets that
  /// hug a field moved onto it.
  private static func split(literals: [String], fields: [(Field, Int?, Bool)]) -> (
    String, [Item], [String], String
  ) {
    guard !fields.isEmpty else { return (literals[0], [], [], "") }
    var items = fields.map { Item(field: $0.0, width: $0.1, scrolls: $0.2) }
    var separators: [String] = []
    var prefix = ""
    var suffix = ""
    for (index, literal) in literals.enumerated() {
      // Closers at the start belong to the field before, openers at the end to the one after.
      var middle = Substring(literal)
      if index > 0 {
        let closer = middle.prefix { closers.contains($0) }
        items[index - 1].closer = String(closer)
        middle = middle.dropFirst(closer.count)
      }
      if index < fields.count {
        let opener = String(middle.reversed().prefix { openers.contains($0) }.reversed())
        items[index].opener = opener
        middle = middle.dropLast(opener.count)
      }
      if index == 0 {
        prefix = String(middle)
      } else if index == fields.count {
        suffix = String(middle)
      } else {
        separators.append(String(middle))
      }
    }
    return (prefix, items, separators, suffix)
  }

  /// True when the template shows `field` anywhere.
  package func shows(_ field: Field) -> Bool { items.contains { $0.field == field } }

  /// The weight of a separator: its visible (non-whitespace) characters.
  package static func weight(_ separator: String) -> Int {
    separator.count { !$0.isWhitespace }
  }

  /// The text for these values, unescaped (`nil` or empty: the field is missing; a field with
  /// a width is fitted). For tests and the slow paths; frames use ``TemplateRenderer``.
  package func text(_ value: (Field) -> String?) -> String {
    var text = prefix
    var previous: Int?
    for (index, item) in items.enumerated() {
      var content = value(item.field) ?? ""
      guard !content.isEmpty || item.width != nil else { continue }
      if let width = item.width { content = TextCells.fit(content, cells: width) }
      if let previous {
        text += separators[previous..<index].min { Self.weight($0) < Self.weight($1) } ?? ""
      }
      text += item.opener + content + item.closer
      previous = index
    }
    return text + suffix
  }
}

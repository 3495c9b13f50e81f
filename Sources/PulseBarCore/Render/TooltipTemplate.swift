/// The waybar tooltip as a template: `output.tooltip`, default
/// `{state} · {artist} — {title} ({player})`.
///
/// Fields: `{state}`, `{player}`, `{title}`, `{artist}`, `{album}` and `{source}` (the
/// monitored source, or "audio server unreachable"). A field with no value is dropped cleanly:
/// - brackets that hug a field (`({player})`, `[{album}]`) go with it;
/// - between two fields that are left, the *lightest* separator of the ones that stood between
///   them is kept (the one with the fewest visible characters; the first on a tie). So with the
///   default, no artist gives `Playing · Title (mpv)`, no title `Playing · Artist (mpv)`, no
///   player at all `Playing`;
/// - text before the first field and after the last always stays.
///
/// Parsed once per configuration; rendered only when what it shows changes (a state change, a
/// new track), never per frame.
package struct TooltipTemplate: Sendable, Equatable {
  /// What a `{name}` stands for.
  package enum Field: String, Sendable, CaseIterable {
    case state, player, title, artist, album, source
  }

  /// One field with the brackets that hug it.
  struct Item: Sendable, Equatable {
    var field: Field
    var opener: String
    var closer: String
  }

  /// Text before the first field.
  let prefix: String
  let items: [Item]
  /// `separators[i]` stands between `items[i]` and `items[i + 1]`.
  let separators: [String]
  /// Text after the last field.
  let suffix: String

  /// The default template.
  package static let defaultText = "{state} · {artist} — {title} ({player})"

  private static let openers: Set<Character> = ["(", "[", "{", "«", "<"]
  private static let closers: Set<Character> = [")", "]", "}", "»", ">"]

  /// Parses `text`; a `{name}` that names no field is kept as literal text (see
  /// ``unknownFields(in:)`` for the config check).
  package init(_ text: String) {
    var literals: [String] = [""]
    var fields: [Field] = []
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{") {
      let afterOpen = rest.index(after: open)
      guard let close = rest[afterOpen...].firstIndex(of: "}"),
        let field = Field(rawValue: String(rest[afterOpen..<close]))
      else {
        literals[literals.count - 1] += rest[...open]
        rest = rest[afterOpen...]
        continue
      }
      literals[literals.count - 1] += rest[..<open]
      fields.append(field)
      literals.append("")
      rest = rest[rest.index(after: close)...]
    }
    literals[literals.count - 1] += rest
    guard !fields.isEmpty else {
      prefix = literals[0]
      items = []
      separators = []
      suffix = ""
      return
    }
    var items = fields.map { Item(field: $0, opener: "", closer: "") }
    var separators: [String] = []
    var prefix = ""
    var suffix = ""
    for (index, literal) in literals.enumerated() {
      // Closers at the start belong to the field before, openers at the end to the one after.
      var middle = Substring(literal)
      if index > 0 {
        let closer = middle.prefix { Self.closers.contains($0) }
        items[index - 1].closer = String(closer)
        middle = middle.dropFirst(closer.count)
      }
      if index < fields.count {
        let opener = String(middle.reversed().prefix { Self.openers.contains($0) }.reversed())
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
    self.prefix = prefix
    self.items = items
    self.separators = separators
    self.suffix = suffix
  }

  /// The `{name}`s in `text` that name no field.
  package static func unknownFields(in text: String) -> [String] {
    var unknown: [String] = []
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{") {
      let afterOpen = rest.index(after: open)
      guard let close = rest[afterOpen...].firstIndex(of: "}") else { break }
      let name = String(rest[afterOpen..<close])
      if !name.contains("{") && Field(rawValue: name) == nil { unknown.append(name) }
      rest = rest[rest.index(after: close)...]
    }
    return unknown
  }

  /// One piece of a rendered tooltip: the template's own text, or a field's value (which the
  /// renderer escapes for markup).
  package struct Piece: Equatable {
    package var text: String
    package var isValue: Bool
  }

  /// The pieces for these values (`nil` or empty: the field is missing).
  package func render(_ value: (Field) -> String?) -> [Piece] {
    var pieces: [Piece] = []
    func literal(_ text: String) {
      if !text.isEmpty { pieces.append(Piece(text: text, isValue: false)) }
    }
    literal(prefix)
    var previous: Int?
    for (index, item) in items.enumerated() {
      guard let text = value(item.field), !text.isEmpty else { continue }
      if let previous { literal(Self.lightest(separators[previous..<index])) }
      literal(item.opener)
      pieces.append(Piece(text: text, isValue: true))
      literal(item.closer)
      previous = index
    }
    literal(suffix)
    return pieces
  }

  /// The rendered text, unescaped.
  package func text(_ value: (Field) -> String?) -> String {
    render(value).map(\.text).joined()
  }

  /// The separator with the fewest visible characters; the first on a tie.
  private static func lightest(_ candidates: ArraySlice<String>) -> String {
    var best = candidates.first ?? ""
    var bestWeight = Int.max
    for candidate in candidates {
      let weight = candidate.count { !$0.isWhitespace }
      if weight < bestWeight {
        best = candidate
        bestWeight = weight
      }
    }
    return best
  }
}

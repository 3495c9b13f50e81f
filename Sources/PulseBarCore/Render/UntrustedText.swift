/// Text that comes from outside pulsebar (an MPRIS player's title, artist, album and bus name;
/// the audio server's source names), made safe for the parser that reads the line it goes
/// into.
///
/// Any program on the session bus can publish a player, and a browser publishes what a web
/// page chooses, so this text is hostile until escaped:
/// - every dialect: C0 and C1 controls, DEL, the line and paragraph separators (U+2028,
///   U+2029) and the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069)
///   become a space, so a value can never break a line, start an ANSI sequence or reorder
///   the text around it; invalid UTF-8 was already U+FFFD when the `String` was made;
/// - ``Dialect/textLine``: polybar parses every `%{` in a script's line as a tag (`%{A1:cmd:}`
///   runs a command on a click, `%{F#f00}` recolours the bar), and doubling `%` is no escape
///   there (polybar 3.6 still parses `%%{`). So a space goes between a value's `%` and the
///   `{` after it, after a `%` that ends a value and before a `{` that starts one: no `%{` can
///   form inside a value or where it meets the line's own text. A space, because no invisible
///   character is drawn as nothing by polybar in every font: with DejaVu Sans Mono, U+FEFF
///   is a blank cell (+10 px each at 16 px) and U+034F, U+200B, U+200C, U+200D and U+2060 are
///   dropped with a warning in polybar's log at every redraw (DejaVu Sans Mono has no empty
///   zero-width glyph at all); a space is one cell in every font and counted as one
///   (docs/WIDTHS.md). polybar shapes no emoji ZWJ sequence either: it draws every member
///   (👩‍👩‍👧‍👦 four pictures, +50 px over the 2 cells counted), so an emoji character holding
///   U+200D ZERO WIDTH JOINER is written as its first emoji, with the VS16 after it if any
///   (``firstEmojiOfJoinedSequences(_:)``): 2 cells drawn as counted;
/// - ``Dialect/pango``: the above, and `&`, `<`, `>` as entities (i3blocks with
///   `markup=pango`);
/// - ``Dialect/pangoInJSON``: `&`, `<`, `>` as entities, then JSON string escaping (Waybar parses
///   a custom module's text and tooltip as Pango markup, whatever pulsebar's own markup is);
/// - ``Dialect/json``: the value as it is, JSON-escaped; the controls and bidi characters
///   above are written as `\uXXXX`, so a script sees them and a terminal printing the line
///   does not obey them.
///
/// Every value is cut to ``maximumBytes`` on a character boundary before anything else, so
/// nothing a player sends can make a line longer than a few kB. Escaping runs when a value
/// changes (a new track), never per frame.
package enum UntrustedText {
  /// The consumer a value is escaped for.
  package enum Dialect: Sendable {
    /// A plain text line (stdout, `listen --format text`, polybar, i3blocks without markup,
    /// ANSI terminals).
    case textLine
    /// A text line read as Pango markup (i3blocks `markup=pango`).
    case pango
    /// Pango markup inside a JSON string (Waybar's `text` and `tooltip`).
    case pangoInJSON
    /// A JSON string body (the json format's fields).
    case json
  }

  /// The most bytes of one value that are kept.
  package static let maximumBytes = 1000

  /// What breaks a `%{` in a text line: a space, one cell in every font (see the type's docs).
  package static let tagBreaker: Unicode.Scalar = " "

  /// `text` cut to at most `maximumBytes` of UTF-8, on a character boundary (a whole
  /// grapheme cluster is kept or dropped). Reads at most that many bytes of `text`.
  package static func capped(_ text: String, maximumBytes: Int = maximumBytes) -> String {
    guard text.utf8.count > maximumBytes else { return text }
    var end = text.utf8.index(text.utf8.startIndex, offsetBy: maximumBytes)
    // Back to the start of a scalar, then of the character it is in: a character the cut
    // would split (a letter without its accent) is dropped whole.
    while end > text.startIndex && UTF8.isContinuation(text.utf8[end]) {
      end = text.utf8.index(before: end)
    }
    while end > text.startIndex && end.samePosition(in: text) == nil {
      end = text.unicodeScalars.index(before: end)
    }
    return String(text[..<end])
  }

  /// True for the scalars that become a space in a text line (see the type's docs).
  @inline(__always)
  package static func isControl(_ value: UInt32) -> Bool {
    switch value {
    case 0..<0x20, 0x7F...0x9F, 0x2028...0x2029, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// `text` capped, with every control (``isControl(_:)``) replaced by a space: what a text
  /// line may show, before any markup escaping.
  package static func sanitized(_ text: String) -> String {
    let text = capped(text)
    guard text.unicodeScalars.contains(where: { isControl($0.value) }) else { return text }
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      scalars.append(isControl(scalar.value) ? " " : scalar)
    }
    return String(scalars)
  }

  /// `text` with every emoji ZWJ sequence (a character whose first scalar is an emoji and
  /// that holds U+200D) written as its first emoji, and the VS16 (U+FE0F) right after it if
  /// there is one: 👩‍👩‍👧‍👦 becomes 👩, 🏳️‍🌈 becomes 🏳️. What a text line shows, since polybar
  /// draws each member of a sequence (see the type's docs). A character with a joiner that
  /// does not start with an emoji (a Devanagari conjunct) is kept whole.
  package static func firstEmojiOfJoinedSequences(_ text: String) -> String {
    guard text.unicodeScalars.contains("\u{200D}") else { return text }
    var result = String.UnicodeScalarView()
    for character in text {
      let scalars = character.unicodeScalars
      guard let first = scalars.first, first.properties.isEmoji, first.value > 0x7F,
        scalars.contains("\u{200D}")
      else {
        result.append(contentsOf: scalars)
        continue
      }
      result.append(first)
      let second = scalars.index(after: scalars.startIndex)
      if second < scalars.endIndex && scalars[second] == "\u{FE0F}" { result.append("\u{FE0F}") }
    }
    return String(result)
  }

  /// Appends `text` escaped for `dialect` (capped and sanitized as the type's docs say).
  package static func append(_ text: String, as dialect: Dialect, to line: inout ByteLine) {
    var text = capped(text)
    if dialect == .textLine { text = firstEmojiOfJoinedSequences(text) }
    if dialect == .json {
      for scalar in text.unicodeScalars { line.appendJSONEscaped(scalar) }
      return
    }
    var first = true
    var scalars = text.unicodeScalars.makeIterator()
    var next = scalars.next()
    while let scalar = next {
      next = scalars.next()
      let value = isControl(scalar.value) ? " " : scalar
      switch dialect {
      case .textLine, .pango:
        if first && value == "{" { line.append(tagBreaker) }
        if dialect == .pango, let entity = entity(for: value) {
          line.append(entity)
        } else {
          line.append(value)
        }
        if value == "%" && (next == nil || next == "{") { line.append(tagBreaker) }
      case .pangoInJSON:
        if let entity = entity(for: value) {
          line.append(entity)
        } else {
          line.appendJSONEscaped(value)
        }
      case .json:
        line.appendJSONEscaped(value)
      }
      first = false
    }
  }

  /// The Pango entity for `&`, `<` and `>`.
  private static func entity(for scalar: Unicode.Scalar) -> StaticString? {
    switch scalar {
    case "&": "&amp;"
    case "<": "&lt;"
    case ">": "&gt;"
    default: nil
    }
  }
}

extension ByteLine {
  /// Appends one scalar's UTF-8 bytes.
  package mutating func append(_ scalar: Unicode.Scalar) {
    for byte in scalar.utf8 { append(byte) }
  }

  /// Appends one scalar as JSON string content: `"`, `\` and the controls of
  /// ``UntrustedText/isControl(_:)`` escaped (`\n` as itself, the rest as `\uXXXX`).
  package mutating func appendJSONEscaped(_ scalar: Unicode.Scalar) {
    let value = scalar.value
    guard UntrustedText.isControl(value) || value == 0x22 || value == 0x5C else {
      append(scalar)
      return
    }
    switch value {
    case 0x22: append("\\\"")
    case 0x5C: append("\\\\")
    case 0x0A: append("\\n")
    default:
      append("\\u")
      for shift in stride(from: 12, through: 0, by: -4) {
        let nibble = UInt8((value >> UInt32(shift)) & 0xF)
        append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
      }
    }
  }
}

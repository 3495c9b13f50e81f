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
/// - ``Dialect/textLine`` and ``Dialect/polybarLine``: polybar parses every `%{` in a script's
///   line as a tag (`%{A1:cmd:}` runs a command on a click, `%{F#f00}` recolours the bar), and
///   doubling `%` is no escape there (polybar 3.6 still parses `%%{`). So polybar's empty tag
///   ``tagBreak`` (`%{O0}`, an offset of 0 px) goes between a value's `%` and the `{` after
///   it, before a `{` that starts a value and after a `%` that ends one: polybar then draws
///   the `%` and the `{` as they are, with nothing between them (seen in polybar 3.6.3), and no
///   `%{` can form inside a value or where it meets the line's own text. A lone `{`, `}` or
///   `%` inside a value is written as it is. The break takes no cell (``VisibleCells``
///   counts it as nothing in every markup), and `pulsebar listen` takes it out again for a
///   reader that is not polybar (i3blocks, a terminal). polybar shapes no emoji ZWJ sequence
///   either: it draws every member
///   (👩‍👩‍👧‍👦 four pictures, +50 px over the 2 cells counted), so an emoji character holding
///   U+200D ZERO WIDTH JOINER is written as its first emoji, with the VS16 after it if any
///   (``firstEmojiOfJoinedSequences(_:)``): 2 cells drawn as counted;
/// - ``Dialect/polybarLine`` and ``Dialect/terminalLine`` (polybar and ANSI markup): their
///   readers do no bidi, so a right-to-left value is written in display order and shaped
///   (``BidiText/visual(_:)``); ``Dialect/terminalLine`` breaks no `%{` (a terminal reads it);
/// - ``Dialect/textLine``, ``Dialect/pango`` and ``Dialect/pangoInJSON``: a value holding a
///   right-to-left character is isolated (``BidiText/isolated(_:)``), since their readers
///   (Pango, terminals) do bidi;
/// - ``Dialect/pango``: `&`, `<`, `>` as entities (i3blocks with `markup=pango`), and the `%`
///   of a `%{` (or ending a value) as `&#37;`, the `{` starting one as `&#123;`: Pango shows
///   them as they are, and no `%{` is left in the line, so `pulsebar listen`, which reads the
///   markup from the line (``VisibleCells/guessedMarkup(of:)``), does not take it for polybar's;
/// - ``Dialect/pangoInJSON``: `&`, `<`, `>` as entities, then JSON string escaping (Waybar parses
///   a custom module's text and tooltip as Pango markup, whatever pulsebar's own markup is);
/// - ``Dialect/json``: the value as it is, JSON-escaped; the controls and bidi characters
///   above are written as `\uXXXX`, so a script sees them and a terminal printing the line
///   does not obey them.
///
/// Every value is cut to ``maximumBytes`` on a character boundary and normalized to NFC
/// before anything else (``capped(_:maximumBytes:)``), so nothing a player sends can make a
/// line longer than a few kB, and a decomposed `ệ` is one character drawn in one cell, not a
/// letter and two marks polybar draws apart. Escaping runs when a value changes (a new track),
/// never per frame.
package enum UntrustedText {
  /// The consumer a value is escaped for.
  package enum Dialect: Sendable {
    /// A plain text line whose reader is not known (`markup = none`: stdout,
    /// `listen --format text`, polybar, i3blocks without markup).
    case textLine
    /// A text line polybar reads (`markup = polybar`): no bidi in the reader.
    case polybarLine
    /// A text line a terminal reads with ANSI colours (`markup = ansi`, the terminal view).
    case terminalLine
    /// A text line read as Pango markup (i3blocks `markup=pango`).
    case pango
    /// Pango markup inside a JSON string (Waybar's `text` and `tooltip`).
    case pangoInJSON
    /// A JSON string body (the json format's fields).
    case json
  }

  /// The most bytes of one value that are kept.
  package static let maximumBytes = 1000

  /// What breaks a `%{` in a line polybar may read: polybar's empty offset tag, drawn as
  /// nothing (see the type's docs).
  package static let tagBreak: StaticString = "%{O0}"

  /// `text` cut to at most `maximumBytes` of UTF-8 on a character boundary (a whole grapheme
  /// cluster is kept or dropped) and normalized to NFC (canonical composition: what a title
  /// shows does not change, only how its characters are encoded).
  package static func capped(_ text: String, maximumBytes: Int = maximumBytes) -> String {
    let text = cut(text, maximumBytes: maximumBytes)
    guard text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
    // The standard library's own NFC (`_nfcCodeUnits`, public though underscored): Foundation
    // stays out of the daemon. Composition makes text shorter or keeps it; cut again anyway.
    return cut(String(decoding: text._nfcCodeUnits, as: UTF8.self), maximumBytes: maximumBytes)
  }

  /// `text` cut to at most `maximumBytes` of UTF-8, on a character boundary. Reads at most that
  /// many bytes of `text`.
  private static func cut(_ text: String, maximumBytes: Int) -> String {
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

  /// `text` with every emoji ZWJ sequence and every emoji with a skin-tone modifier (a
  /// character whose first scalar is an emoji and that holds U+200D or U+1F3FB…U+1F3FF)
  /// written as its first emoji, and the VS16 (U+FE0F) right after it if there is one:
  /// 👩‍👩‍👧‍👦 becomes 👩, 🏳️‍🌈 becomes 🏳️, 👍🏽 becomes 👍. What a text line shows, since polybar
  /// draws each member of a sequence and the modifier as a swatch of its own (see the type's
  /// docs). A character with a joiner that does not start with an emoji (a Devanagari
  /// conjunct) is kept whole.
  package static func firstEmojiOfJoinedSequences(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0 == "\u{200D}" || isSkinTone($0) }) else {
      return text
    }
    var result = String.UnicodeScalarView()
    for character in text {
      let scalars = character.unicodeScalars
      guard let first = scalars.first, first.properties.isEmoji, first.value > 0x7F,
        scalars.contains(where: { $0 == "\u{200D}" || isSkinTone($0) })
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

  /// `text` with each regional indicator (a flag is two) written as its ASCII capital:
  /// 🇫🇷 becomes `FR`. polybar draws each indicator apart, as a letter an emoji wide (a flag
  /// 35 px for its 2 cells); the letters are the 2 cells counted.
  package static func flagsAsLetters(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isRegionalIndicator) else { return text }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if isRegionalIndicator(scalar), let letter = Unicode.Scalar(scalar.value - 0x1F1E6 + 0x41) {
        result.append(letter)
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }

  /// U+1F1E6…U+1F1FF, the regional indicators A…Z.
  package static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
    (0x1F1E6...0x1F1FF).contains(scalar.value)
  }

  /// The emoji modifiers (skin tones), U+1F3FB…U+1F3FF.
  private static func isSkinTone(_ scalar: Unicode.Scalar) -> Bool {
    (0x1F3FB...0x1F3FF).contains(scalar.value)
  }

  /// Appends `text` escaped for `dialect` (capped, sanitized, ordered or isolated as the
  /// type's docs say). `alone`: the text is one character of a scrolling window, which may
  /// meet any text at either edge, so every `{` and `%` in it takes the tag break, and the
  /// window is isolated or ordered as a whole by its caller.
  package static func append(
    _ text: String, as dialect: Dialect, to line: inout ByteLine, alone: Bool = false
  ) {
    var text = capped(text)
    if dialect == .textLine || dialect == .polybarLine {
      text = firstEmojiOfJoinedSequences(text)
    }
    if dialect == .json {
      for scalar in text.unicodeScalars { line.appendJSONEscaped(scalar) }
      return
    }
    let visualOrder = dialect == .polybarLine || dialect == .terminalLine
    if visualOrder && !alone { text = BidiText.visual(text) }
    if dialect == .polybarLine { text = flagsAsLetters(text) }
    let isolates = !visualOrder && !alone && BidiText.hasRightToLeft(text)
    if isolates { line.append(BidiText.isolateStart) }
    let breaksTags = dialect == .textLine || dialect == .polybarLine
    var first = true
    var previous: Unicode.Scalar?
    var scalars = text.unicodeScalars.makeIterator()
    var next = scalars.next()
    while let scalar = next {
      next = scalars.next()
      let value = isControl(scalar.value) ? " " : scalar
      switch dialect {
      case .textLine, .polybarLine, .terminalLine, .pango:
        if breaksTags && value == "{" && (first || alone || previous == "%") {
          line.append(tagBreak)
        }
        if dialect == .pango, let entity = entity(for: value) {
          line.append(entity)
        } else if dialect == .pango && value == "%" && (next == nil || next == "{" || alone) {
          line.append("&#37;")
        } else if dialect == .pango && value == "{" && (first || alone) {
          line.append("&#123;")
        } else {
          line.append(value)
        }
        if breaksTags && value == "%" && (next == nil || alone) { line.append(tagBreak) }
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
      previous = value
    }
    if isolates { line.append(BidiText.isolateEnd) }
  }

  /// Appends `fitted` (a value ``TextCells/fit(_:cells:)`` cut and padded) escaped for
  /// `dialect`, its padding after the value rather than in it: a right-to-left value is
  /// isolated or put in display order without the figure spaces, which would otherwise go to
  /// its left.
  package static func appendFitted(_ fitted: String, as dialect: Dialect, to line: inout ByteLine) {
    var value = Substring(fitted)
    var padding = 0
    while value.last == TextCells.padding {
      value.removeLast()
      padding += 1
    }
    append(String(value), as: dialect, to: &line)
    for _ in 0..<padding { line.append(TemplateRenderer.figureSpace) }
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

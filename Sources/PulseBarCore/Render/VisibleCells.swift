/// The cells a bar shows of one rendered line: its text without the markup its reader parses,
/// counted by ``CellCounter``. Reads the bytes once and allocates nothing, so the renderer can
/// measure every line it draws.
///
/// - ``Markup/pango``: `<…>` tags take nothing, an entity (`&amp;`, `&#8199;`) is its one
///   character;
/// - ``Markup/polybar``: `%{…}` tags take nothing;
/// - ``Markup/ansi``: `ESC [ … final` sequences take nothing;
/// - ``Markup/pangoInJSON``: a JSON string's body (`\"`, `\\`, `\n`, `\uXXXX`) read as Pango.
/// Invalid UTF-8 counts as U+FFFD, one cell.
package enum VisibleCells {
  package enum Markup: Sendable {
    case none, pango, polybar, ansi, pangoInJSON
  }

  /// The cells `line` shows in `markup`.
  package static func count(_ line: some Collection<UInt8>, markup: Markup) -> Int {
    var stripper = MarkupStripper(markup: markup == .pangoInJSON ? .pango : markup)
    var iterator = line.makeIterator()
    var decoder = UTF8()
    var json = JSONUnescaper()
    loop: while true {
      let scalar: Unicode.Scalar
      switch decoder.decode(&iterator) {
      case .scalarValue(let value): scalar = value
      case .error: scalar = "\u{FFFD}"
      case .emptyInput: break loop
      }
      if markup == .pangoInJSON {
        if let decoded = json.feed(scalar) { stripper.feed(decoded) }
      } else {
        stripper.feed(scalar)
      }
    }
    stripper.finish()
    return stripper.counter.cells
  }

  /// The markup a text line from the daemon is in, read from the line itself (a listener does
  /// not know the daemon's `output.markup`): pulsebar writes ESC only for ANSI colours, `%{`
  /// only in polybar tags (values never form one), `<span` for Pango and escapes `&` there.
  package static func guessedMarkup(of line: some Collection<UInt8>) -> Markup {
    let bytes = Array(line)
    if bytes.contains(0x1B) { return .ansi }
    if bytes.firstRange(of: Array("%{".utf8)) != nil { return .polybar }
    for marker in ["<span", "</span>", "&amp;", "&lt;", "&gt;", "&#"]
    where bytes.firstRange(of: Array(marker.utf8)) != nil {
      return .pango
    }
    return .none
  }
}

/// Drops markup from a stream of scalars and counts the rest.
struct MarkupStripper {
  let markup: VisibleCells.Markup
  var counter = CellCounter()
  /// The first scalar counted (``CellSpan`` asks whether it starts a character).
  private(set) var firstShown: Unicode.Scalar?
  private var inTag = false
  private var pendingPercent = false
  private var escape = false
  /// In an entity: `nil` outside; the numeric value so far (0 for a named one).
  private var entity: UInt32?
  private var entityIsNumber = false
  private var entityIsHex = false

  init(markup: VisibleCells.Markup) { self.markup = markup }

  mutating func feed(_ scalar: Unicode.Scalar) {
    switch markup {
    case .none, .pangoInJSON: show(scalar)
    case .pango: feedPango(scalar)
    case .polybar:
      if inTag {
        if scalar == "}" { inTag = false }
      } else if pendingPercent {
        pendingPercent = false
        if scalar == "{" {
          inTag = true
        } else {
          show("%")
          feed(scalar)
        }
      } else if scalar == "%" {
        pendingPercent = true
      } else {
        show(scalar)
      }
    case .ansi:
      if escape {
        if scalar == "[" { inTag = true } else { show(scalar) }
        escape = false
      } else if inTag {
        if (0x40...0x7E).contains(scalar.value) { inTag = false }
      } else if scalar.value == 0x1B {
        escape = true
      } else {
        show(scalar)
      }
    }
  }

  private mutating func feedPango(_ scalar: Unicode.Scalar) {
    if inTag {
      if scalar == ">" { inTag = false }
      return
    }
    if let value = entity {
      switch scalar {
      case ";":
        let shown = entityIsNumber ? Unicode.Scalar(value) ?? "\u{FFFD}" : "&"
        entity = nil
        show(shown)
      default:
        if scalar == "#" && value == 0 && !entityIsNumber {
          entityIsNumber = true
        } else if (scalar == "x" || scalar == "X") && entityIsNumber && value == 0 {
          entityIsHex = true
        } else if entityIsNumber, let digit = hexDigit(scalar), entityIsHex || digit < 10,
          value <= 0x10FFFF
        {
          entity = value * (entityIsHex ? 16 : 10) + digit
        }
      }
      return
    }
    switch scalar {
    case "<": inTag = true
    case "&":
      entity = 0
      entityIsNumber = false
      entityIsHex = false
    default: show(scalar)
    }
  }

  private mutating func show(_ scalar: Unicode.Scalar) {
    if firstShown == nil { firstShown = scalar }
    counter.add(scalar)
  }

  /// Outside any tag, entity or escape: what follows is read as text (a polybar `%` waiting
  /// for its `{` is counted by ``finish()``, as the text after it would count it).
  var isNeutral: Bool { !inTag && !escape && entity == nil }

  mutating func finish() {
    if pendingPercent { show("%") }
  }
}

/// Decodes a JSON string body scalar by scalar: `nil` while inside an escape.
struct JSONUnescaper {
  private var escaped = false
  /// Hex digits of a `\u` escape read so far, and their value.
  private var hexDigits: Int?
  private var value: UInt32 = 0
  /// A high surrogate waiting for its low half.
  private var high: UInt32?

  /// Outside any escape, with no surrogate half waiting.
  var isNeutral: Bool { !escaped && hexDigits == nil && high == nil }

  mutating func feed(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
    if let digits = hexDigits {
      guard let digit = hexDigit(scalar) else {
        hexDigits = nil
        return "\u{FFFD}"
      }
      value = value << 4 | digit
      guard digits == 3 else {
        hexDigits = digits + 1
        return nil
      }
      hexDigits = nil
      if (0xD800...0xDBFF).contains(value) {
        high = value
        return nil
      }
      if let first = high, (0xDC00...0xDFFF).contains(value) {
        high = nil
        return Unicode.Scalar(0x10000 + (first - 0xD800) << 10 + (value - 0xDC00))
      }
      high = nil
      return Unicode.Scalar(value) ?? "\u{FFFD}"
    }
    if escaped {
      escaped = false
      switch scalar {
      case "u":
        hexDigits = 0
        value = 0
        return nil
      case "n", "t", "r": return " "
      default: return scalar
      }
    }
    if scalar == "\\" {
      escaped = true
      return nil
    }
    return scalar
  }
}

/// The value of a hexadecimal digit.
private func hexDigit(_ scalar: Unicode.Scalar) -> UInt32? {
  switch scalar.value {
  case 0x30...0x39: scalar.value - 0x30
  case 0x41...0x46: scalar.value - 0x37
  case 0x61...0x66: scalar.value - 0x57
  default: nil
  }
}

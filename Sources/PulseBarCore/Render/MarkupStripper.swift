/// Drops markup from a stream of scalars and counts the rest.
///
/// In every markup, polybar's empty tag `%{O0}` (``UntrustedText/tagBreak``, what keeps a
/// value from opening a polybar tag) takes no cell: polybar draws nothing for it, and
/// `pulsebar listen` takes it out for any other reader.
struct MarkupStripper {
  let markup: VisibleCells.Markup
  var counter = CellCounter()
  /// The first scalar counted (``CellSpan`` asks whether it starts a character).
  private(set) var firstShown: Unicode.Scalar?
  private var inTag = false
  private var pendingPercent = false
  /// How many scalars of ``tagBreak`` have been read and held back (``Markup/none``).
  private var breakMatched = 0
  private static let tagBreak: [Unicode.Scalar] = ["%", "{", "O", "0", "}"]
  private var escape = false
  /// In an entity: `nil` outside; the numeric value so far (0 for a named one).
  private var entity: UInt32?
  private var entityIsNumber = false
  private var entityIsHex = false

  init(markup: VisibleCells.Markup) { self.markup = markup }

  mutating func feed(_ scalar: Unicode.Scalar) {
    switch markup {
    case .none, .pangoInJSON: feedPlain(scalar)
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

  /// Text without markup: every scalar counts but a whole ``UntrustedText/tagBreak``.
  private mutating func feedPlain(_ scalar: Unicode.Scalar) {
    if scalar == Self.tagBreak[breakMatched] {
      breakMatched += 1
      if breakMatched == Self.tagBreak.count { breakMatched = 0 }
      return
    }
    for held in Self.tagBreak.prefix(breakMatched) { show(held) }
    breakMatched = scalar == Self.tagBreak[0] ? 1 : 0
    if breakMatched == 0 { show(scalar) }
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
  var isNeutral: Bool { !inTag && !escape && entity == nil && breakMatched == 0 }

  mutating func finish() {
    if pendingPercent { show("%") }
    for held in Self.tagBreak.prefix(breakMatched) { show(held) }
    breakMatched = 0
  }
}

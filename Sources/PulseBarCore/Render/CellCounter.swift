/// Counts the cells of a stream of scalars a character (grapheme cluster) at a time, with no
/// allocation: what ``TextCells`` and a rendered line's width (``VisibleCells``) both use.
///
/// A character takes the cells of its first scalar (East Asian wide and fullwidth and emoji
/// shown as pictures: 2; combining marks and format characters alone: 0; else 1); what joins
/// it adds none: combining and spacing marks, variation selectors, ZWJ and the scalar after
/// it, emoji modifiers and tags, the second regional indicator of a flag. VS16 (U+FE0F)
/// makes a one-cell character an emoji picture, two cells; VS15 (U+FE0E) makes a wide emoji
/// text, one cell.
package struct CellCounter: Sendable {
  package private(set) var cells = 0
  /// The cells of the character being counted (already in ``cells``).
  private var current = 0
  /// The character's first scalar is an emoji (not CJK), so VS15/VS16 change its width.
  private var emojiBase = false
  private var afterJoiner = false
  /// The character is a lone regional indicator a second one would pair with.
  private var openFlag = false

  package init() {}

  package mutating func add(_ scalar: Unicode.Scalar) {
    let value = scalar.value
    if afterJoiner {
      afterJoiner = false
      if value >= 0x20 { return }
    }
    switch value {
    case 0x200D:
      afterJoiner = true
      return
    case 0xFE0F:
      if current == 1 && emojiBase { grow(to: 2) }
      return
    case 0xFE0E:
      if current == 2 && emojiBase { grow(to: 1) }
      return
    case 0xFE00...0xFE0D, 0xE0100...0xE01EF, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F:
      if current > 0 { return }
    case 0x1F1E6...0x1F1FF:
      if openFlag {
        openFlag = false
        return
      }
      start(2, emoji: true)
      openFlag = true
      return
    case 0x1160...0x11FF, 0xD7B0...0xD7FF:  // Hangul medial and final jamo join
      if current > 0 { return }
    default: break
    }
    if value >= 0x20, current > 0 {
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .enclosingMark, .spacingMark: return
      default: break
      }
    }
    let width = TextCells.startWidth(scalar)
    start(width, emoji: Self.isEmojiBase(value))
  }

  /// A joiner or a lone regional indicator is waiting: the next scalar may join the last
  /// character.
  var joinsNext: Bool { afterJoiner || openFlag }

  /// True when `scalar` starts a new character of its own width whatever came before it (but
  /// a pending joiner, ``joinsNext``): it is not one of the scalars ``add(_:)`` joins to the
  /// character before.
  static func startsCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20: return true
    case 0x200D, 0xFE00...0xFE0F, 0xE0100...0xE01EF, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F,
      0x1160...0x11FF, 0xD7B0...0xD7FF:
      return false
    default: break
    }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .spacingMark: return false
    default: return true
    }
  }

  private mutating func start(_ width: Int, emoji: Bool) {
    cells += width
    current = width
    emojiBase = emoji
    openFlag = false
  }

  private mutating func grow(to width: Int) {
    cells += width - current
    current = width
  }

  /// Pictographs and symbols that have both a text and an emoji presentation.
  private static func isEmojiBase(_ value: UInt32) -> Bool {
    switch value {
    case 0x23, 0x2A, 0x30...0x39, 0xA9, 0xAE, 0x203C...0x2BFF, 0x3030, 0x303D, 0x3297, 0x3299,
      0x1F000...0x1FAFF:
      true
    default: false
    }
  }
}

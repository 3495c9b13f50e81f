internal import CFriBidi

/// Right-to-left text for the line's reader.
///
/// A reader that does bidi (Pango in Waybar and swaybar, most terminals) gets each outside
/// value that holds a right-to-left character wrapped in U+2068 FIRST STRONG ISOLATE …
/// U+2069 POP DIRECTIONAL ISOLATE (``isolated(_:)``): the value is laid out on its own, so an
/// Arabic or Hebrew title never moves the glyph, the bars or the position beside it, and a
/// neutral character at its edge (a digit, a dash) stays on its side. Both take no cell.
///
/// polybar and the ANSI terminal view do neither bidi nor Arabic shaping: they draw a line's
/// characters left to right as they come. For them a value with a right-to-left character is
/// put in display order and shaped (Arabic letters in their joined presentation forms) by GNU
/// FriBidi (``visual(_:)``), opened on first use; without libfribidi0 the value stays in
/// reading order, unshaped. Values without a right-to-left character are never touched.
package enum BidiText {
  package static let isolateStart: Unicode.Scalar = "\u{2068}"
  package static let isolateEnd: Unicode.Scalar = "\u{2069}"

  /// True when `scalar` is a right-to-left letter or an Arabic digit: Hebrew, Arabic, Syriac,
  /// Thaana, N'Ko, Samaritan, Mandaic, their presentation forms and the right-to-left
  /// scripts of the supplementary planes (bidi classes R, AL and AN).
  @inline(__always)
  package static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFE, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
      true
    default: false
    }
  }

  /// True when `text` holds a right-to-left character (``isRightToLeft(_:)``).
  package static func hasRightToLeft(_ text: some StringProtocol) -> Bool {
    text.unicodeScalars.contains(where: isRightToLeft)
  }

  /// `text` wrapped in an isolate when it holds a right-to-left character.
  package static func isolated(_ text: String) -> String {
    guard hasRightToLeft(text) else { return text }
    return String(isolateStart) + text + String(isolateEnd)
  }

  /// `text` in display order and shaped (see the type's docs) when it holds a right-to-left
  /// character and FriBidi can be opened; else `text` as it is.
  package static func visual(_ text: String) -> String {
    guard hasRightToLeft(text) else { return text }
    let scalars = text.unicodeScalars.map(\.value)
    guard scalars.count <= Int(PULSEBAR_BIDI_MAX) else { return text }
    var output = [UInt32](repeating: 0, count: scalars.count)
    var error = [CChar](repeating: 0, count: 160)
    let count = scalars.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { visual in
        pulsebar_bidi_visual(
          input.baseAddress, Int32(input.count), visual.baseAddress, &error, error.count)
      }
    }
    guard count >= 0 else { return text }
    var result = String.UnicodeScalarView()
    for value in output.prefix(Int(count)) {
      if let scalar = Unicode.Scalar(value) { result.append(scalar) }
    }
    return String(result)
  }

  /// Whether FriBidi can be opened here (the tests say which behaviour they see).
  package static var isAvailable: Bool {
    var error = [CChar](repeating: 0, count: 160)
    var output: UInt32 = 0
    let input: [UInt32] = [0x05D0]
    return input.withUnsafeBufferPointer {
      pulsebar_bidi_visual($0.baseAddress, 1, &output, &error, error.count) == 1
    }
  }
}

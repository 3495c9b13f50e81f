/// Makes text from a file, a command line or a peer safe to print in a message on stderr or in
/// the journal: every character a terminal would obey or not show is written as an escape.
/// ``Console/error(_:)`` applies it to every line it writes, so no message carries one raw.
///
/// A config line holding a NUL, an ESC sequence or a byte-order mark, echoed raw in
/// `FILE:LINE: expected 'key = value', got '…'`, would be cut short, recolour the terminal or
/// look like nothing. Escaped are the C0 controls (`\t`, `\n`, `\r` by name, the others as
/// `\xHH`), DEL (`\x7F`), the C1 controls, U+FEFF, the zero-width spaces and joiners, the
/// direction marks, the line and paragraph separators and the bidi embeddings, overrides and
/// isolates (as `\u{XXXX}`); a backslash stays as it is, so escaping twice changes nothing.
/// This is more than a bar line blanks (`UntrustedText.isControl`): a message also shows the
/// characters that take no cell. Invalid UTF-8 never gets here (a `String` holds U+FFFD):
/// the config reader names its first bad byte (`\xFF`) itself.
package enum MessageEscaping {
  /// `text` with every invisible or terminal-controlling character escaped.
  package static func escaped(_ text: String) -> String {
    escaped(text, keepingLineBreaks: false)
  }

  /// `text` escaped as ``escaped(_:)`` but for its line breaks (`\n`), which stay: several
  /// lines for stderr.
  package static func escapedLines(_ text: String) -> String {
    escaped(text, keepingLineBreaks: true)
  }

  private static func escaped(_ text: String, keepingLineBreaks: Bool) -> String {
    let escapes = { (scalar: Unicode.Scalar) in
      needsEscape(scalar) && !(keepingLineBreaks && scalar == "\n")
    }
    guard text.unicodeScalars.contains(where: escapes) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      guard escapes(scalar) else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch scalar.value {
      case 0x09: result += "\\t"
      case 0x0A: result += "\\n"
      case 0x0D: result += "\\r"
      case 0..<0x80: result += "\\x" + hex(scalar.value, digits: 2)
      default: result += "\\u{" + hex(scalar.value, digits: 4) + "}"
      }
    }
    return result
  }

  /// `bytes` as `\xHH` escapes: a byte that is not UTF-8, for a message.
  package static func escaped(bytes: some Sequence<UInt8>) -> String {
    bytes.map { "\\x" + hex(UInt32($0), digits: 2) }.joined()
  }

  /// True for the scalars ``escaped(_:)`` writes as an escape.
  package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F: true  // C0, DEL, C1
    case 0x200B...0x200F, 0x2060, 0xFEFF: true  // zero-width, direction marks, BOM
    case 0x2028...0x202E, 0x2066...0x2069: true  // separators, bidi embeddings and isolates
    default: false
    }
  }

  /// `value` in upper-case hexadecimal, at least `digits` long.
  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}

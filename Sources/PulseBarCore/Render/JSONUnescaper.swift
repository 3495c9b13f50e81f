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

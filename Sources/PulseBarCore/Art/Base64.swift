/// Standard base64 (RFC 4648 §4) without line breaks; padding optional.
package enum Base64 {
  /// The bytes of `text`, or `nil` for a character outside the alphabet or a bad length.
  package static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.count / 4 * 3 + 3)
    var accumulator: UInt32 = 0
    var bits = 0
    var padding = 0
    for character in text {
      if character == UInt8(ascii: "=") {
        padding += 1
        guard padding <= 2 else { return nil }
        continue
      }
      guard padding == 0, let value = sextet(character) else { return nil }
      accumulator = accumulator << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
        accumulator &= (1 << UInt32(bits)) - 1
      }
    }
    // 6 bits left means a lone character: no whole byte.
    guard bits != 6 else { return nil }
    return bytes
  }

  private static func sextet(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
    case UInt8(ascii: "+"): 62
    case UInt8(ascii: "/"): 63
    default: nil
    }
  }
}

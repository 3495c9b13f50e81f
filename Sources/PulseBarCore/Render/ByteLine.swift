/// A growable byte buffer for one output line, reused frame after frame.
///
/// Appending never allocates once the buffer has grown to the longest line
/// seen (it keeps its capacity), and numbers are written digit by digit
/// rather than through `String`, so rendering allocates nothing per frame.
public struct ByteLine: Sendable, Equatable {
  public private(set) var bytes: [UInt8] = []

  public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

  public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

  @inline(__always)
  public mutating func append(_ byte: UInt8) { bytes.append(byte) }

  /// Appends a literal's UTF-8 bytes.
  public mutating func append(_ literal: StaticString) {
    literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Appends pre-encoded bytes.
  public mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }

  /// Appends a non-negative integer in decimal.
  public mutating func append(integer value: UInt64) {
    if value >= 10 { append(integer: value / 10) }
    bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
  }

  /// Appends a signed integer in decimal.
  public mutating func append(signed value: Int) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    append(integer: UInt64(value.magnitude))
  }

  /// Appends `value` with exactly `decimals` digits after the point (rounded half away from zero).
  public mutating func append(_ value: Double, decimals: Int) {
    var scale: UInt64 = 1
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value.magnitude * Double(scale)).rounded()
    guard scaled.isFinite, scaled < 1e18 else {
      bytes.append(UInt8(ascii: "0"))
      return
    }
    let whole = UInt64(scaled)
    if value < 0 && whole != 0 { bytes.append(UInt8(ascii: "-")) }
    append(integer: whole / scale)
    guard decimals > 0 else { return }
    bytes.append(UInt8(ascii: "."))
    var fraction = whole % scale
    var divisor = scale / 10
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
      fraction %= divisor
      divisor /= 10
    }
  }

  /// Appends bytes as a JSON string body (no quotes), escaping what JSON requires.
  public mutating func appendJSONEscaped(_ utf8: [UInt8]) {
    for byte in utf8 { appendJSONEscaped(byte: byte) }
  }

  /// Appends bytes escaped for Pango markup (`&`, `<`, `>`) inside a JSON string.
  public mutating func appendMarkupEscaped(_ utf8: [UInt8]) {
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "&"): append("&amp;")
      case UInt8(ascii: "<"): append("&lt;")
      case UInt8(ascii: ">"): append("&gt;")
      default: appendJSONEscaped(byte: byte)
      }
    }
  }

  @inline(__always)
  private mutating func appendJSONEscaped(byte: UInt8) {
    switch byte {
    case UInt8(ascii: "\""): append("\\\"")
    case UInt8(ascii: "\\"): append("\\\\")
    case 0x0A: append("\\n")
    case 0..<0x20:
      append("\\u00")
      bytes.append(Self.hexDigit(byte >> 4))
      bytes.append(Self.hexDigit(byte & 0xF))
    default: bytes.append(byte)
    }
  }

  private static func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
  }
}

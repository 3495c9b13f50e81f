import Glibc

/// A growable byte buffer for one output line, reused frame after frame.
///
/// Appending never allocates once the buffer has grown to the longest line
/// seen (it keeps its capacity), and numbers are written digit by digit
/// rather than through `String`, so rendering allocates nothing per frame.
public struct ByteLine: Sendable, Equatable {
  public private(set) var bytes: [UInt8] = []

  /// An empty line; with `capacity` > 0 it reserves that much (an empty one allocates nothing).
  public init(capacity: Int = 0) {
    if capacity > 0 { bytes.reserveCapacity(capacity) }
  }

  public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

  /// Byte-wise equality by `memcmp` (the renderer compares every line with the last one).
  public static func == (left: ByteLine, right: ByteLine) -> Bool {
    guard left.bytes.count == right.bytes.count else { return false }
    return left.bytes.withUnsafeBytes { leftBytes in
      right.bytes.withUnsafeBytes { rightBytes in
        leftBytes.count == 0
          || memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, leftBytes.count) == 0
      }
    }
  }

  @inline(__always)
  public mutating func append(_ byte: UInt8) { bytes.append(byte) }

  /// Appends a literal's UTF-8 bytes.
  public mutating func append(_ literal: StaticString) {
    literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Appends pre-encoded bytes.
  public mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }

  /// Appends pre-encoded bytes (glyphs, table entries: a byte loop beats the generic
  /// `append(contentsOf:)` for a handful of bytes).
  @inline(__always)
  public mutating func append(_ other: UnsafeBufferPointer<UInt8>) {
    if other.count <= 8 {
      for byte in other { bytes.append(byte) }
    } else {
      bytes.append(contentsOf: other)
    }
  }

  /// Appends a non-negative integer in decimal.
  public mutating func append(integer value: UInt64) {
    // Bar values (0…1000) and counters are short: write their digits directly.
    if value < 100_000 {
      if value >= 10_000 { bytes.append(UInt8(ascii: "0") + UInt8(value / 10_000)) }
      if value >= 1000 { bytes.append(UInt8(ascii: "0") + UInt8(value / 1000 % 10)) }
      if value >= 100 { bytes.append(UInt8(ascii: "0") + UInt8(value / 100 % 10)) }
      if value >= 10 { bytes.append(UInt8(ascii: "0") + UInt8(value / 10 % 10)) }
      bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
      return
    }
    // Digits right to left into a stack buffer, then one append.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var remaining = value
      var start = 20
      while remaining > 0 {
        start -= 1
        digits[start] = UInt8(ascii: "0") + UInt8(remaining % 10)
        remaining /= 10
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
    }
  }

  /// Appends a signed integer in decimal.
  public mutating func append(signed value: Int) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    append(integer: UInt64(value.magnitude))
  }

  /// `0.000` … `1.000`, five bytes each: most numbers the formats write are heights,
  /// alphas and coordinates in 0…1 with three decimals, and a table beats arithmetic.
  private static let unitTable: [UInt8] = {
    var table: [UInt8] = []
    table.reserveCapacity(1001 * 5)
    for thousandths in 0...1000 {
      table.append(UInt8(ascii: "0") + UInt8(thousandths / 1000))
      table.append(UInt8(ascii: "."))
      table.append(UInt8(ascii: "0") + UInt8(thousandths / 100 % 10))
      table.append(UInt8(ascii: "0") + UInt8(thousandths / 10 % 10))
      table.append(UInt8(ascii: "0") + UInt8(thousandths % 10))
    }
    return table
  }()

  /// Appends `value` with exactly `decimals` digits after the point (rounded half away from zero).
  public mutating func append(_ value: Double, decimals: Int) {
    if decimals == 3 && value >= 0 && value <= 1 {
      let start = Int(value * 1000 + 0.5) * 5  // non-negative: truncation rounds half up
      Self.unitTable.withUnsafeBufferPointer { table in
        for offset in start..<(start + 5) { bytes.append(table[offset]) }
      }
      return
    }
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
  public mutating func appendJSONEscaped(_ utf8: some Sequence<UInt8>) {
    for byte in utf8 { appendJSONEscaped(byte: byte) }
  }

  /// Appends bytes escaped for Pango markup (`&`, `<`, `>`) inside a JSON string.
  public mutating func appendMarkupEscaped(_ utf8: some Sequence<UInt8>) {
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

import Glibc

/// A growable byte buffer for one output line, reused frame after frame.
///
/// Raw memory that only grows (to the longest line seen), written through a
/// pointer: appending a byte is a capacity check and a store, with none of
/// `Array`'s uniqueness checks, and numbers are written digit by digit rather
/// than through `String`. Rendering allocates nothing per frame.
///
/// Copies share the memory (a renderer hands its line out to be written
/// at once, and is the only one that writes); `bytes` is valid until the
/// line is next changed.
package struct ByteLine: Equatable {
  /// Frees the memory when the last copy of the line goes away.
  private final class Storage {
    var pointer: UnsafeMutablePointer<UInt8>
    init(capacity: Int) { pointer = .allocate(capacity: capacity) }
    deinit { pointer.deallocate() }
  }

  private var storage: Storage?
  private var base: UnsafeMutablePointer<UInt8>!
  private var capacity = 0
  /// Bytes written.
  package private(set) var count = 0

  /// A line with room for `capacity` bytes; with 0 (an empty placeholder) it allocates nothing
  /// until the first append.
  package init(capacity: Int = 0) {
    guard capacity > 0 else { return }
    self.capacity = capacity
    storage = Storage(capacity: capacity)
    base = storage!.pointer
  }

  /// The bytes written; valid until the line is next changed.
  package var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  /// Calls `body` with the bytes written.
  package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try body(UnsafeRawBufferPointer(bytes))
  }

  package mutating func removeAll() { count = 0 }

  /// Byte-wise equality by `memcmp` (the renderer compares every line with the last one).
  package static func == (left: ByteLine, right: ByteLine) -> Bool {
    left.count == right.count && (left.count == 0 || memcmp(left.base, right.base, left.count) == 0)
  }

  /// Makes room for `extra` more bytes.
  @inline(__always)
  private mutating func reserve(_ extra: Int) {
    if count + extra > capacity { grow(to: count + extra) }
  }

  private mutating func grow(to needed: Int) {
    var newCapacity = max(64, capacity * 2)
    while newCapacity < needed { newCapacity *= 2 }
    let grown = Storage(capacity: newCapacity)
    if count > 0 { grown.pointer.update(from: base, count: count) }
    storage = grown
    base = grown.pointer
    capacity = newCapacity
  }

  @inline(__always)
  package mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  /// Appends a literal's UTF-8 bytes.
  package mutating func append(_ literal: StaticString) {
    literal.withUTF8Buffer { append($0) }
  }

  /// Appends pre-encoded bytes.
  @inline(__always)
  package mutating func append(_ other: UnsafeBufferPointer<UInt8>) {
    guard let source = other.baseAddress, other.count > 0 else { return }
    reserve(other.count)
    if other.count <= 8 {
      // A glyph or a tag: stored directly, cheaper than a call to memmove.
      for index in 0..<other.count { base[count + index] = source[index] }
    } else {
      (base + count).update(from: source, count: other.count)
    }
    count += other.count
  }

  /// Appends another line's bytes.
  package mutating func append(_ other: ByteLine) { append(other.bytes) }

  /// Appends pre-encoded bytes.
  package mutating func append(_ other: [UInt8]) {
    other.withUnsafeBufferPointer { append($0) }
  }

  /// Appends a non-negative integer in decimal.
  package mutating func append(integer value: UInt64) {
    var digits = 1
    var limit: UInt64 = 10
    while digits < 20 && value >= limit {
      digits += 1
      limit = limit &* 10
    }
    reserve(digits)
    var remaining = value
    var index = count + digits - 1
    while index >= count {
      base[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
      remaining /= 10
      index -= 1
    }
    count += digits
  }

  /// Appends a signed integer in decimal.
  package mutating func append(signed value: Int) {
    if value < 0 { append(UInt8(ascii: "-")) }
    append(integer: UInt64(value.magnitude))
  }

  /// Appends `value` with exactly `decimals` digits after the point (rounded half away from zero).
  package mutating func append(_ value: Double, decimals: Int) {
    // Most numbers the formats write are heights, alphas and coordinates in 0…1 with three
    // decimals: five bytes stored directly.
    if decimals == 3 && value >= 0 && value <= 1 {
      let thousandths = Int(value * 1000 + 0.5)  // non-negative: truncation rounds half up
      reserve(5)
      let zero = UInt8(ascii: "0")
      base[count] = zero + UInt8(thousandths / 1000)
      base[count + 1] = UInt8(ascii: ".")
      base[count + 2] = zero + UInt8(thousandths / 100 % 10)
      base[count + 3] = zero + UInt8(thousandths / 10 % 10)
      base[count + 4] = zero + UInt8(thousandths % 10)
      count += 5
      return
    }
    var scale: UInt64 = 1
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value.magnitude * Double(scale)).rounded()
    guard scaled.isFinite, scaled < 1e18 else {
      append(UInt8(ascii: "0"))
      return
    }
    let whole = UInt64(scaled)
    if value < 0 && whole != 0 { append(UInt8(ascii: "-")) }
    append(integer: whole / scale)
    guard decimals > 0 else { return }
    append(UInt8(ascii: "."))
    // The fraction with its leading zeros: scale + fraction, first digit dropped.
    reserve(decimals + 1)
    let mark = count
    append(integer: scale + whole % scale)
    base.advanced(by: mark).update(from: base.advanced(by: mark + 1), count: decimals)
    count -= 1
  }

  /// Appends bytes as a JSON string body (no quotes), escaping what JSON requires.
  package mutating func appendJSONEscaped(_ utf8: some Sequence<UInt8>) {
    for byte in utf8 { appendJSONEscaped(byte: byte) }
  }

  /// Appends bytes escaped for Pango markup (`&`, `<`, `>`), inside a JSON string unless
  /// `inJSON` is false.
  package mutating func appendMarkupEscaped(_ utf8: some Sequence<UInt8>, inJSON: Bool = true) {
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "&"): append("&amp;")
      case UInt8(ascii: "<"): append("&lt;")
      case UInt8(ascii: ">"): append("&gt;")
      default: if inJSON { appendJSONEscaped(byte: byte) } else { append(byte) }
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
      append(Self.hexDigit(byte >> 4))
      append(Self.hexDigit(byte & 0xF))
    default: append(byte)
    }
  }

  private static func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
  }
}

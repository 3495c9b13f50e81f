/// Where a track's art is, from the player's untrusted `mpris:artUrl`: a local file (`file://`,
/// as ``LyricPaths/filePath(fromURI:)`` reads it) or the image itself (`data:…;base64,`).
/// Art over `http(s)://` is not fetched: the daemon has no network in its unit.
package enum ArtSource: Equatable, Sendable {
  case file(String)
  case bytes([UInt8])
  /// Nothing to read, and the one-line reason (at `-v`).
  case unsupported(String)

  /// The most bytes of an image (`file://` or `data:`), checked before it is read or decoded.
  package static let maximumImageBytes = 16 << 20
  /// The longest `data:` URI kept from the bus: a longer one is left out, never cut.
  package static let maximumDataURIBytes = 1 << 20

  /// What `uri` names.
  package static func parse(_ uri: String) -> ArtSource {
    let scheme = uri.prefix(while: { $0 != ":" }).lowercased()
    switch scheme {
    case "file":
      guard let path = LyricPaths.filePath(fromURI: uri) else {
        return .unsupported("not a local absolute file:// path")
      }
      return .file(path)
    case "data":
      guard let bytes = dataBytes(uri) else { return .unsupported("not a base64 data: URI") }
      return .bytes(bytes)
    case "http", "https": return .unsupported("art over \(scheme) is not fetched")
    default: return .unsupported("an unknown URI scheme")
    }
  }

  /// The bytes of `data:[type][;param…];base64,PAYLOAD`; `nil` without `;base64` or with a bad
  /// payload.
  static func dataBytes(_ uri: String) -> [UInt8]? {
    let utf8 = uri.utf8
    guard let comma = utf8.firstIndex(of: UInt8(ascii: ",")) else { return nil }
    let header = String(
      decoding: utf8[utf8.index(utf8.startIndex, offsetBy: 5)..<comma], as: UTF8.self)
    guard header.lowercased().hasSuffix(";base64") else { return nil }
    return Base64.decode(utf8[utf8.index(after: comma)...])
  }
}

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

/// `colors.from_art` and `colors.background`: what the players' thread needs to build an
/// ``ArtPalette`` (a reload posts a new one).
package struct ArtSettings: Sendable, Equatable {
  package var enabled: Bool
  package var background: RGBColor

  package init(enabled: Bool, background: RGBColor) {
    self.enabled = enabled
    self.background = background
  }

  package init(_ configuration: Configuration) {
    self.init(
      enabled: configuration.colorsFromArt,
      background: configuration.backgroundColor ?? RGBColor(red: 0, green: 0, blue: 0))
  }
}

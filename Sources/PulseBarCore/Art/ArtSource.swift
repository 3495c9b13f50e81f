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

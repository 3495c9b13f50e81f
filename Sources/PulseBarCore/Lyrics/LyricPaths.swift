/// Where a track's synced lyric may be, in order: the `.lrc` beside the track (its
/// `xesam:url` path with the suffix `.lrc`), then `Artist - Title.lrc` in `lyrics.directory`.
/// Pure: the players' thread reads the files (``RegularFile``, with its limits).
///
/// The URL comes from the player: untrusted. Only a `file://` URI with an absolute path (and
/// no host but `localhost`) names a file; it is percent-decoded, and one whose bytes are not
/// UTF-8, hold a NUL or a bad escape names none.
package enum LyricPaths {
  /// The files to try for a track, best first.
  package static func candidates(
    url: String?, artist: String?, title: String?, directory: String?
  ) -> [String] {
    var paths: [String] = []
    if let url, let track = filePath(fromURI: url) { paths.append(besideTrack(track)) }
    if let directory, let path = inDirectory(directory, artist: artist, title: title) {
      paths.append(path)
    }
    return paths
  }

  /// The local path of a `file://` URI, percent-decoded; `nil` for anything else.
  package static func filePath(fromURI uri: String) -> String? {
    var rest = Substring(uri)
    guard rest.prefix(7).lowercased() == "file://" else { return nil }
    rest = rest.dropFirst(7)
    if rest.prefix(9).lowercased() == "localhost" { rest = rest.dropFirst(9) }
    guard rest.first == "/" else { return nil }
    var bytes: [UInt8] = []
    var utf8 = rest.utf8[...]
    while let byte = utf8.popFirst() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = utf8.popFirst().flatMap(hexValue),
        let low = utf8.popFirst().flatMap(hexValue)
      else { return nil }
      bytes.append(high << 4 | low)
    }
    guard !bytes.contains(0), let path = String(validating: bytes, as: UTF8.self) else {
      return nil
    }
    return path
  }

  /// `track` with its suffix (`.flac`) replaced by `.lrc`, or `.lrc` added when it has none.
  package static func besideTrack(_ track: String) -> String {
    let name = track.lastIndex(of: "/").map { track.index(after: $0) } ?? track.startIndex
    guard let dot = track[name...].lastIndex(of: "."), dot > name else { return track + ".lrc" }
    return track[..<dot] + ".lrc"
  }

  /// `directory/Artist - Title.lrc`, or `nil` without both; a `/` or a NUL in a name becomes
  /// `_`, so a name never leaves the directory.
  package static func inDirectory(_ directory: String, artist: String?, title: String?)
    -> String?
  {
    guard let artist, let title, !artist.isEmpty, !title.isEmpty, !directory.isEmpty else {
      return nil
    }
    let name = "\(artist) - \(title).lrc".map { $0 == "/" || $0 == "\0" ? "_" : $0 }
    return (directory.hasSuffix("/") ? directory : directory + "/") + String(name)
  }

  /// `lyrics.directory` as configured, with a leading `~` for `home`; `nil` when empty.
  package static func directory(_ configured: String, home: String?) -> String? {
    guard !configured.isEmpty else { return nil }
    if configured == "~" || configured.hasPrefix("~/"), let home {
      return home + configured.dropFirst()
    }
    return configured
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

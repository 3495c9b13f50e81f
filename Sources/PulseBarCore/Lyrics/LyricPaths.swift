/// Where a track's synced lyric may be, in order: the `.lrc` beside the track (its
/// `xesam:url` path with the suffix `.lrc`), then `Artist - Title.lrc` in `lyrics.directory`.
/// Pure: the players' thread reads the files (``RegularFile``, with its limits).
///
/// The URL comes from the player: untrusted. Only a `file://` URI with an absolute path (and
/// no host but `localhost`) names a file; it is percent-decoded, and one whose bytes are not
/// UTF-8, hold a NUL or a bad escape names none. The path is normalised (no empty or `.`
/// component); one with a `..` component, or longer than ``maximumPathBytes`` or a name longer
/// than ``maximumNameBytes``, names none: `..` is refused rather than resolved, since through a
/// symbolic link the kernel's `..` is not the lexical one.
package enum LyricPaths {
  /// Linux's `PATH_MAX` (with its NUL) and `NAME_MAX`: longer names no file.
  package static let maximumPathBytes = 4095
  package static let maximumNameBytes = 255

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

  /// The local path of a `file://` URI, percent-decoded and normalised; `nil` for anything
  /// else.
  package static func filePath(fromURI uri: String) -> String? {
    // Each byte of the path is at most 3 of the URI (`%XX`): a longer URI names none.
    guard uri.utf8.count <= 16 + 3 * maximumPathBytes else { return nil }
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
    return normalised(path)
  }

  /// `path` (absolute) without empty or `.` components; `nil` with a `..` component, none at
  /// all, or past ``maximumPathBytes`` or ``maximumNameBytes``.
  static func normalised(_ path: String) -> String? {
    let names = path.utf8.split(separator: UInt8(ascii: "/")).filter {
      !$0.elementsEqual(".".utf8)
    }
    guard !names.isEmpty,
      names.allSatisfy({ $0.count <= maximumNameBytes && !$0.elementsEqual("..".utf8) })
    else { return nil }
    let length = names.reduce(0) { $0 + 1 + $1.count }
    guard length <= maximumPathBytes else { return nil }
    // Cut at ASCII `/` bytes out of valid UTF-8: every name is valid UTF-8 too.
    return String(
      decoding: names.reduce(into: [UInt8]()) { $0 += [UInt8(ascii: "/")] + $1 }, as: UTF8.self)
  }

  /// `track` with its suffix (`.flac`) replaced by `.lrc`, or `.lrc` added when it has none.
  /// Bytes, not characters: a `/` or `.` followed by a combining mark is one character.
  package static func besideTrack(_ track: String) -> String {
    let utf8 = track.utf8
    let name =
      utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
    guard let dot = utf8[name...].lastIndex(of: UInt8(ascii: ".")), dot > name else {
      return track + ".lrc"
    }
    // Cut before an ASCII byte of valid UTF-8: the part before is valid UTF-8.
    return String(Substring(utf8[..<dot])) + ".lrc"
  }

  /// `directory/Artist - Title.lrc`, or `nil` without both; a `/` or a NUL in a name becomes
  /// `_`, so a name never leaves the directory. Scalars, not characters: a `/` followed by a
  /// combining mark is one character but still the kernel's separator.
  package static func inDirectory(_ directory: String, artist: String?, title: String?)
    -> String?
  {
    guard let artist, let title, !artist.isEmpty, !title.isEmpty, !directory.isEmpty else {
      return nil
    }
    var name = String.UnicodeScalarView()
    for scalar in "\(artist) - \(title).lrc".unicodeScalars {
      name.append(scalar == "/" || scalar == "\0" ? "_" : scalar)
    }
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

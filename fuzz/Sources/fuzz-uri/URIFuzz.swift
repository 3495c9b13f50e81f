import PulseBarCore

/// libFuzzer entry: the input is a player's `xesam:url` or `mpris:artUrl` (invalid UTF-8
/// replaced, as the bus gives valid strings), then optionally byte 0x01 and an artist, 0x01 and
/// a title. It is driven down to the files the daemon would open: ``LyricPaths`` (the `.lrc`
/// beside the track, `Artist - Title.lrc` in a lyrics directory) and ``ArtSource`` (a `file://`
/// path, or `data:` bytes).
///
/// Invariants: a path is absolute, normalised (no empty, `.` or `..` component, no trailing
/// `/`), without NUL, within `PATH_MAX` and `NAME_MAX`, and reads back from its own
/// percent-encoding; the `.lrc` beside a track is in the track's folder; a lyrics-directory
/// file is directly inside that directory; the art's file is the lyric's track path; a `data:`
/// URI gives at most 3 bytes per 4 characters; a refusal's reason is one line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURI(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = UnsafeBufferPointer(start: data, count: size)
  let parts = input.split(separator: 1, maxSplits: 2, omittingEmptySubsequences: false)
    .map { String(decoding: $0, as: UTF8.self) }
  let uri = parts[0]
  let path = LyricPaths.filePath(fromURI: uri)
  if let path {
    checkPath(path)
    guard LyricPaths.filePath(fromURI: "file://" + percentEncoded(path)) == path,
      LyricPaths.filePath(fromURI: "FILE://localhost" + percentEncoded(path)) == path
    else { fatalError("\(path.debugDescription) does not read back from its URI") }
  }
  let artist = parts.count > 1 ? parts[1] : "The Band"
  let title = parts.count > 2 ? parts[2] : "A Song"
  for directory in ["/lyrics", "/lyrics/"] {
    checkLyric(uri: uri, path: path, artist: artist, title: title, directory: directory)
  }
  checkArt(uri: uri, path: path)
  return 0
}

/// Absolute, normalised, no NUL, within Linux's limits.
private func checkPath(_ path: String) {
  let names = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
  guard path.utf8.first == UInt8(ascii: "/"), path.utf8.count <= LyricPaths.maximumPathBytes,
    !path.utf8.contains(0), names.count >= 2, names[0].isEmpty
  else { fatalError("not an absolute path within bounds: \(path.debugDescription)") }
  for name in names.dropFirst() {
    guard !name.isEmpty, !name.elementsEqual(".".utf8), !name.elementsEqual("..".utf8),
      name.count <= LyricPaths.maximumNameBytes
    else { fatalError("not normalised: \(path.debugDescription)") }
  }
}

/// The candidates: the `.lrc` beside the track first (in its folder), then the directory's.
private func checkLyric(
  uri: String, path: String?, artist: String, title: String, directory: String
) {
  var candidates = LyricPaths.candidates(
    url: uri, artist: artist, title: title, directory: directory)[...]
  if let path {
    guard let beside = candidates.popFirst(), beside.utf8.reversed().starts(with: "crl.".utf8),
      !beside.utf8.contains(0),
      folder(of: beside).elementsEqual(folder(of: path))
    else { fatalError("the .lrc of \(path.debugDescription) is not beside it") }
  }
  if !artist.isEmpty, !title.isEmpty {
    // Bytes, as the kernel reads a path (a `/` and a combining mark are one character).
    guard let named = candidates.popFirst(), named.utf8.starts(with: "/lyrics/".utf8),
      !named.utf8.dropFirst(8).contains(UInt8(ascii: "/")), !named.utf8.contains(0),
      named.utf8.reversed().starts(with: "crl.".utf8)
    else { fatalError("a lyrics-directory file outside it for \(artist.debugDescription)") }
  }
  guard candidates.isEmpty else { fatalError("more candidates than sources: \(candidates)") }
}

/// `mpris:artUrl`: a `file://` URI names the same file as for the lyric, `data:` bytes are
/// bounded by the URI, a refusal says why in one line.
private func checkArt(uri: String, path: String?) {
  switch ArtSource.parse(uri) {
  case .file(let file):
    guard file == path else { fatalError("art file \(file.debugDescription) ≠ \(path as Any)") }
  case .bytes(let bytes):
    guard bytes.count <= uri.utf8.count / 4 * 3 + 3 else { fatalError("\(bytes.count) bytes") }
  case .unsupported(let reason):
    guard path == nil || !uri.lowercased().hasPrefix("file:"), !reason.contains("\n") else {
      fatalError("refused \(uri.debugDescription): \(reason)")
    }
  }
}

/// The bytes of `path` up to its last `/`.
private func folder(of path: String) -> Substring.UTF8View {
  let utf8 = Substring(path).utf8
  return utf8[..<(utf8.lastIndex(of: UInt8(ascii: "/")) ?? utf8.startIndex)]
}

/// `path` as a URI path: unreserved bytes and `/` as they are, every other byte `%XX`.
private func percentEncoded(_ path: String) -> String {
  let digits = Array("0123456789ABCDEF".utf8)
  var bytes: [UInt8] = []
  for byte in path.utf8 {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"),
      UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
      bytes.append(byte)
    default:
      bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
    }
  }
  return String(decoding: bytes, as: UTF8.self)
}

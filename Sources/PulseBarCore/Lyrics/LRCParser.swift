/// Reads LRC text (a `.lrc` file, a player's `xesam:asText`) into a ``SyncedLyric``: pure,
/// total over any input.
///
/// What LRC files really contain:
/// - lines of one or more time tags and a text: `[01:02.50]words`, `[00:10.00][00:40.00]chorus`
///   (a tag is `[m:ss]`, `[m:ss.x]`, `[m:ss.xx]` or `[m:ss.xxx]`, with `.` or `:` before the
///   fraction, minutes up to five digits);
/// - headers `[ar:…]`, `[ti:…]`, `[al:…]`, `[length:m:ss]`, `[offset:±ms]` (positive: every
///   line earlier), and others (`[by:]`, `[re:]`, `[ve:]`, `[#:]`) that say nothing to show;
/// - enhanced LRC's word times `<01:02.50>` inside a text, removed;
/// - a byte order mark, CRLF or CR line ends, blank lines.
///
/// Anything else is a malformed line, skipped and counted (``SyncedLyric/malformedLines``).
/// Every number is read digit by digit with a bound on the digits, a text keeps at most
/// ``UntrustedText/maximumBytes``, and at most ``maximumLines`` timed lines are kept, so no
/// input can trap or grow without end. Text with no time tag at all is no synced lyric: `nil`.
package enum LRCParser {
  /// Timed lines kept at most (a song has a few hundred).
  package static let maximumLines = 10_000
  /// The latest time a line may have: 99,999 minutes, what five digits of minutes say.
  package static let maximumMilliseconds: Int64 = 99_999 * 60_000 + 59_999
  /// The largest `[offset:]`, milliseconds either way (a day).
  package static let maximumOffset: Int64 = 86_400_000

  /// The lyric in `text`, or `nil` when it has no timed line.
  package static func parse(_ text: String) -> SyncedLyric? {
    var bytes = Array(text.utf8)[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    var lines: [SyncedLyric.Line] = []
    var headers = Headers()
    var malformed = 0
    while !bytes.isEmpty {
      let end =
        bytes.firstIndex { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") } ?? bytes.endIndex
      let line = bytes[..<end]
      bytes = bytes[end...].dropFirst()
      switch read(line, into: &lines, headers: &headers) {
      case .read, .blank: break
      case .malformed: malformed += 1
      }
    }
    guard !lines.isEmpty else { return nil }
    let offset = headers.offset
    var lyric = SyncedLyric(
      lines: lines.map {
        .init(
          milliseconds: min(max($0.milliseconds - offset, 0), maximumMilliseconds), text: $0.text)
      })
    lyric.artist = headers.artist
    lyric.title = headers.title
    lyric.album = headers.album
    lyric.length = headers.length
    lyric.offsetMilliseconds = offset
    lyric.malformedLines = malformed
    return lyric
  }

  /// What the headers said.
  private struct Headers {
    var artist: String?
    var title: String?
    var album: String?
    var length: Double?
    var offset: Int64 = 0
  }

  private enum Outcome { case read, blank, malformed }

  private typealias Bytes = ArraySlice<UInt8>

  /// One line: its timed lines appended, or a header read.
  private static func read(
    _ line: Bytes, into lines: inout [SyncedLyric.Line], headers: inout Headers
  ) -> Outcome {
    let line = trimmed(line)
    guard !line.isEmpty else { return .blank }
    guard line.first == UInt8(ascii: "["), let close = line.firstIndex(of: UInt8(ascii: "]")) else {
      return .malformed
    }
    let first = line[(line.startIndex + 1)..<close]
    if milliseconds(first) != nil { return readTimed(line, into: &lines) }
    return readHeader(first, into: &headers) ? .read : .malformed
  }

  /// `[time][time]…text`: one line per tag, all with the text.
  private static func readTimed(_ line: Bytes, into lines: inout [SyncedLyric.Line]) -> Outcome {
    var rest = line
    var times: [Int64] = []
    while rest.first == UInt8(ascii: "["), let close = rest.firstIndex(of: UInt8(ascii: "]")),
      let time = milliseconds(rest[(rest.startIndex + 1)..<close])
    {
      times.append(time)
      rest = trimmed(rest[(close + 1)...])
    }
    let text = Self.text(rest)
    for time in times where lines.count < maximumLines {
      lines.append(.init(milliseconds: time, text: text))
    }
    return .read
  }

  /// A `[key:value]` header; false when it is none (no key, a key that is not letters).
  private static func readHeader(_ tag: Bytes, into headers: inout Headers) -> Bool {
    guard let colon = tag.firstIndex(of: UInt8(ascii: ":")), colon > tag.startIndex else {
      return false
    }
    let key = tag[..<colon]
    guard key.allSatisfy({ isLetter($0) || $0 == UInt8(ascii: "#") }) else { return false }
    let value = trimmed(tag[(colon + 1)...])
    switch String(decoding: key, as: UTF8.self).lowercased() {
    case "ar": headers.artist = headerText(value)
    case "ti": headers.title = headerText(value)
    case "al": headers.album = headerText(value)
    case "length":
      guard let length = milliseconds(value) else { return false }
      headers.length = SyncedLyric.seconds(length)
    case "offset":
      guard let offset = offset(value) else { return false }
      headers.offset = offset
    default: break
    }
    return true
  }

  /// `m:ss`, `m:ss.f…` or `m:ss:f…` in milliseconds; `nil` for anything else.
  private static func milliseconds(_ tag: Bytes) -> Int64? {
    var rest = tag
    guard let minutes = number(&rest, digits: 1...5), rest.popFirst() == UInt8(ascii: ":"),
      let seconds = number(&rest, digits: 1...2), seconds < 60
    else { return nil }
    var fraction: Int64 = 0
    if let separator = rest.popFirst() {
      guard separator == UInt8(ascii: ".") || separator == UInt8(ascii: ":") else { return nil }
      let digits = rest.count
      guard let value = number(&rest, digits: 1...3) else { return nil }
      fraction = digits == 1 ? value * 100 : digits == 2 ? value * 10 : value
    }
    guard rest.isEmpty else { return nil }
    return minutes * 60_000 + seconds * 1000 + fraction
  }

  /// `+500`, `-250`, `300`: milliseconds within ±``maximumOffset``.
  private static func offset(_ value: Bytes) -> Int64? {
    var rest = value
    var sign: Int64 = 1
    if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") {
      sign = rest.popFirst() == UInt8(ascii: "-") ? -1 : 1
    }
    guard let magnitude = number(&rest, digits: 1...8), rest.isEmpty, magnitude <= maximumOffset
    else { return nil }
    return sign * magnitude
  }

  /// A run of ASCII digits whose count is within `digits` (at most 8, so it fits with room),
  /// taken from the front of `bytes`.
  private static func number(_ bytes: inout Bytes, digits: ClosedRange<Int>) -> Int64? {
    let run = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    guard digits.contains(run.count) else { return nil }
    bytes = bytes.dropFirst(run.count)
    return run.reduce(0) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
  }

  /// A line's text: enhanced LRC's `<m:ss.xx>` word times removed, cut to
  /// ``UntrustedText/maximumBytes``.
  private static func text(_ bytes: Bytes) -> String {
    var kept: [UInt8] = []
    kept.reserveCapacity(min(bytes.count, UntrustedText.maximumBytes + 16))
    var rest = bytes
    while let byte = rest.first, kept.count <= UntrustedText.maximumBytes + 16 {
      if byte == UInt8(ascii: "<"), let close = rest.firstIndex(of: UInt8(ascii: ">")),
        milliseconds(rest[(rest.startIndex + 1)..<close]) != nil
      {
        rest = rest[(close + 1)...]
        continue
      }
      kept.append(byte)
      rest = rest.dropFirst()
    }
    let text = String(decoding: trimmed(kept[...]), as: UTF8.self)
    return UntrustedText.capped(text)
  }

  private static func headerText(_ bytes: Bytes) -> String? {
    bytes.isEmpty ? nil : UntrustedText.capped(String(decoding: bytes, as: UTF8.self))
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
  }

  /// Without ASCII spaces and tabs at either end.
  private static func trimmed(_ bytes: Bytes) -> Bytes {
    let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    guard let start = bytes.firstIndex(where: { !isSpace($0) }),
      let last = bytes.lastIndex(where: { !isSpace($0) })
    else { return bytes[bytes.endIndex...] }
    return bytes[start...last]
  }
}

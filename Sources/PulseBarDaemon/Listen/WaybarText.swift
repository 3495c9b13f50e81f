import PulseBarCore

/// Reads the `text` member of a waybar line: just enough JSON
/// for the lines the daemon writes (`{"text":"…",…}`, one line, string escapes).
enum WaybarText {
  /// The decoded `text` string of `line`, or `nil` when it has none.
  static func text(of line: [UInt8]) -> String? {
    let key = Array(#""text":""#.utf8)
    guard let start = line.firstRange(of: key)?.upperBound else { return nil }
    var scalars = String.UnicodeScalarView()
    var bytes: [UInt8] = []
    var index = start
    func flush() {
      scalars.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars)
      bytes.removeAll()
    }
    while index < line.count {
      let byte = line[index]
      if byte == UInt8(ascii: "\"") {
        flush()
        return String(scalars)
      }
      guard byte == UInt8(ascii: "\\"), index + 1 < line.count else {
        bytes.append(byte)
        index += 1
        continue
      }
      flush()
      let escape = line[index + 1]
      index += 2
      switch escape {
      case UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "r"): scalars.append(" ")
      case UInt8(ascii: "u"):
        guard index + 4 <= line.count,
          let value = UInt32(String(decoding: line[index..<index + 4], as: UTF8.self), radix: 16)
        else { return nil }
        index += 4
        // A surrogate pair's halves make no scalar alone; any one stands in for one cell.
        scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
      default: scalars.append(Unicode.Scalar(escape))
      }
    }
    return nil
  }
}

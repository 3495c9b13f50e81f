import PulseBarCore

/// The display width (cells) of the daemon's live lines, which `pulsebar listen` pads its
/// offline line to, so a bar module keeps its width while the daemon is away.
///
/// Before the first frame arrives it is the width a live line would have, rendered from the
/// listener's configuration (bars, bubbles, title); each frame then replaces it with what the
/// daemon really sends: the cells of a text line, or of waybar's `text` with its Pango markup
/// stripped. Only the text and waybar formats have a width; json and raw are never padded.
package struct LiveLineWidth: Sendable {
  let format: OutputFormat
  /// The last width learned (or the expected one); `nil` for formats without a width.
  package private(set) var cells: Int?

  package init(format: OutputFormat, bars: Int, configuration: Configuration) {
    self.format = format
    cells = Self.expected(format: format, bars: bars, configuration: configuration)
  }

  /// Learns the width of `line` (one frame, without its newline); an empty text (a hidden
  /// module, `output.hide_when`) and a line that is not a frame keep the last width.
  package mutating func learn(from line: some Collection<UInt8>) {
    guard cells != nil, let text = Self.visibleText(of: line, format: format) else { return }
    let width = TextCells.width(of: text)
    if width > 0 { cells = width }
  }

  /// `text` padded with figure spaces (U+2007, as the renderer pads) to the live width.
  package func padded(_ text: String) -> String {
    guard let cells else { return text }
    let missing = cells - TextCells.width(of: text)
    guard missing > 0 else { return text }
    return text + String(repeating: TextCells.padding, count: missing)
  }

  /// The width of a stopped frame with no bars up, rendered as the daemon would render it.
  static func expected(format: OutputFormat, bars: Int, configuration: Configuration) -> Int? {
    guard format == .text || format == .waybar else { return nil }
    var configuration = configuration
    configuration.bars = max(1, bars)
    var scene = Scene(configuration: configuration)
    scene.advance(to: 0, activity: .none, signalPresent: false, onset: false)
    let renderer = FrameRenderer(format: format, configuration: configuration)
    let heights = [Float](repeating: 0, count: configuration.bars)
    let info = FrameInfo(time: 0, source: "", connected: true)
    let written = heights.withUnsafeBufferPointer {
      renderer.render(scene: scene, bars: $0, info: info)
    }
    guard written else { return nil }
    let line = renderer.line.bytes.dropLast()
    return visibleText(of: line, format: format).map { TextCells.width(of: $0) }
  }

  /// What a bar shows of one line: the whole text line, or waybar's `text` without markup.
  static func visibleText(of line: some Collection<UInt8>, format: OutputFormat) -> String? {
    switch format {
    case .text: return String(decoding: line, as: UTF8.self)
    case .waybar:
      return WaybarText.text(of: Array(line)).map(WaybarText.withoutMarkup)
    case .json, .raw: return nil
    }
  }
}

/// Reads the `text` member of a waybar line and strips Pango markup from it: just enough JSON
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

  /// `markup` as Pango shows it: tags removed, the five entities and numeric ones decoded.
  static func withoutMarkup(_ markup: String) -> String {
    var visible = ""
    var entity: String?
    var inTag = false
    for character in markup {
      if inTag {
        if character == ">" { inTag = false }
      } else if character == "<" {
        inTag = true
      } else if character == "&" {
        entity = ""
      } else if var name = entity {
        if character == ";" {
          visible.append(decode(entity: name))
          entity = nil
        } else {
          name.append(character)
          entity = name
        }
      } else {
        visible.append(character)
      }
    }
    return visible
  }

  private static func decode(entity: String) -> Character {
    switch entity {
    case "amp": return "&"
    case "lt": return "<"
    case "gt": return ">"
    case "quot": return "\""
    case "apos": return "'"
    default:
      let number =
        entity.hasPrefix("#x")
        ? UInt32(entity.dropFirst(2), radix: 16) : UInt32(entity.dropFirst(), radix: 10)
      return number.flatMap(Unicode.Scalar.init).map(Character.init) ?? "\u{FFFD}"
    }
  }
}

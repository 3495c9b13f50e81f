import Glibc

/// One screenshot of a status bar (a binary PPM, as `grim -t ppm` and ImageMagick's `import`
/// write it), and what the real-bar tests read from it: the module's box between two marker
/// modules of solid colours, its ink, and whether a colour shows inside it.
package struct BarScreenshot: Sendable {
  /// An RGB colour.
  package struct Color: Equatable, Sendable, CustomStringConvertible {
    package var red: UInt8
    package var green: UInt8
    package var blue: UInt8

    /// `0xRRGGBB`.
    package init(_ hex: UInt32) {
      red = UInt8(hex >> 16 & 0xff)
      green = UInt8(hex >> 8 & 0xff)
      blue = UInt8(hex & 0xff)
    }

    package var description: String {
      "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// Each channel within `tolerance` of `other`'s.
    package func isNear(_ other: Color, tolerance: Int) -> Bool {
      abs(Int(red) - Int(other.red)) <= tolerance && abs(Int(green) - Int(other.green)) <= tolerance
        && abs(Int(blue) - Int(other.blue)) <= tolerance
    }
  }

  /// What the marker modules left and right of the pulsebar module are filled with.
  package static let leftMarker = Color(0xff00ff)
  package static let rightMarker = Color(0x00ffff)
  /// The bar's background in the tests' bar configurations.
  package static let background = Color(0x000000)

  package let width: Int
  package let height: Int
  /// The PPM file's bytes (kept for `write(to:)`) and where the pixels start in them.
  private let bytes: [UInt8]
  private let pixelStart: Int

  /// Parses a binary PPM (`P6`, maxval 255).
  package init?(ppm bytes: [UInt8]) {
    var fields: [Int] = []
    var index = 2
    guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "6") else {
      return nil
    }
    while fields.count < 3 && index < bytes.count {
      if bytes[index] == UInt8(ascii: "#") {
        while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
      } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
        var value = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
          value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
          index += 1
        }
        fields.append(value)
        continue
      }
      index += 1
    }
    index += 1  // the one whitespace byte after maxval
    guard fields.count == 3, fields[2] == 255, bytes.count >= index + fields[0] * fields[1] * 3
    else { return nil }
    width = fields[0]
    height = fields[1]
    self.bytes = bytes
    pixelStart = index
  }

  /// The pixel at (`x`, `y`).
  package func pixel(_ x: Int, _ y: Int) -> Color {
    let offset = pixelStart + (y * width + x) * 3
    var color = Color(0)
    color.red = bytes[offset]
    color.green = bytes[offset + 1]
    color.blue = bytes[offset + 2]
    return color
  }

  /// The module's box: from the end of the left marker to the start of the right marker on the
  /// row `y`, or `nil` when the markers are not both there in that order.
  package func moduleBox(row y: Int) -> Range<Int>? {
    moduleBox(row: y, between: Self.leftMarker, and: Self.rightMarker)
  }

  /// The box between the last `left` pixel and the next `right` pixel on row `y` (a module
  /// between two marker modules of those colours), or `nil` when they are not both there.
  package func moduleBox(row y: Int, between left: Color, and right: Color) -> Range<Int>? {
    var leftEnd: Int?
    for x in 0..<width {
      let color = pixel(x, y)
      if color == left {
        leftEnd = x + 1
      } else if color == right, let leftEnd {
        return leftEnd..<x
      }
    }
    return nil
  }

  /// The marker's rows: the first and last row where the left marker colour shows.
  package func markerRows() -> ClosedRange<Int>? { rows(of: Self.leftMarker) }

  /// The first and last row where `color` shows, or `nil`.
  package func rows(of color: Color) -> ClosedRange<Int>? {
    var first: Int?
    var last: Int?
    for y in 0..<height where (0..<width).contains(where: { pixel($0, y) == color }) {
      first = first ?? y
      last = y
    }
    guard let first, let last else { return nil }
    return first...last
  }

  /// Columns of `box` (on rows `rows`) holding any pixel that is not the background: the ink.
  package func inkColumns(in box: Range<Int>, rows: ClosedRange<Int>) -> [Int] {
    box.filter { x in rows.contains { !pixel(x, $0).isNear(Self.background, tolerance: 24) } }
  }

  /// Ink pixels per column of `box` (on rows `rows`): changes when a bar's height does.
  package func inkProfile(in box: Range<Int>, rows: ClosedRange<Int>) -> [Int] {
    box.map { x in rows.count { !pixel(x, $0).isNear(Self.background, tolerance: 24) } }
  }

  /// True when a pixel of `color` shows in `box` on rows `rows`: `color` drawn over the black
  /// background with a coverage of at least 85 % (thin strokes, Ø's dots, never reach 100 %
  /// under antialiasing), each channel within 6.
  package func shows(_ color: Color, in box: Range<Int>, rows: ClosedRange<Int>) -> Bool {
    box.contains { x in
      rows.contains { y in
        let seen = pixel(x, y)
        let coverage = Double(seen.red) + Double(seen.green) + Double(seen.blue)
        let full = Double(color.red) + Double(color.green) + Double(color.blue)
        guard full > 0, coverage >= 0.85 * full, coverage <= 1.02 * full else { return false }
        let scale = coverage / full
        var blended = color
        blended.red = UInt8(min(255, (Double(color.red) * scale).rounded()))
        blended.green = UInt8(min(255, (Double(color.green) * scale).rounded()))
        blended.blue = UInt8(min(255, (Double(color.blue) * scale).rounded()))
        return seen.isNear(blended, tolerance: 6)
      }
    }
  }

  /// The `count` most frequent non-background colours in `box` on rows `rows` (for messages).
  package func commonColors(in box: Range<Int>, rows: ClosedRange<Int>, count: Int = 5) -> [Color] {
    var tally: [UInt32: Int] = [:]
    for x in box {
      for y in rows {
        let color = pixel(x, y)
        guard color != Self.background else { continue }
        tally[
          UInt32(color.red) << 16 | UInt32(color.green) << 8 | UInt32(color.blue), default: 0] += 1
      }
    }
    return tally.sorted { $0.value > $1.value }.prefix(count).map { Color($0.key) }
  }

  /// Writes the screenshot as PNG to `path` (through ImageMagick's `convert`).
  package func writePNG(to path: String) throws(SpawnError) {
    let ppm = path + ".ppm"
    let descriptor = open(ppm, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw SpawnError(message: "open \(ppm)") }
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    defer { unlink(ppm) }
    let convert = try ChildProcess("convert", [ppm, path])
    guard try convert.waitForExit(timeout: 30) == 0 else {
      throw SpawnError(message: "convert: \(convert.standardError)")
    }
  }

  /// Runs `command` and parses what it writes on stdout as a PPM.
  package static func capture(_ command: [String], environment: [String: String])
    throws(SpawnError) -> BarScreenshot
  {
    let process = try ChildProcess(command[0], Array(command.dropFirst()), environment: environment)
    let bytes = process.readAllBytes(timeout: 30)
    let status = try process.waitForExit(timeout: 30)
    guard status == 0, let shot = BarScreenshot(ppm: bytes) else {
      throw SpawnError(
        message: "\(command[0]) exited \(status), \(bytes.count) bytes: \(process.standardError)")
    }
    return shot
  }
}

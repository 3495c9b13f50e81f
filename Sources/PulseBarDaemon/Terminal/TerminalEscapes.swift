/// The escape sequences that bring a terminal from one screen to the next, written into one
/// reusable byte buffer: cursor moves, colours (24-bit or xterm's 256-colour cube) and UTF-8.
/// Knows the colour the terminal draws with next, so a run of cells in one colour sets it once.
///
/// Grows only when ``reserve(_:)`` asks; writing a frame never allocates.
struct TerminalEscapes {
  /// Emit 24-bit colours, else the 256-colour cube.
  let truecolor: Bool
  /// The sequences written since the last ``removeAll()``.
  private(set) var bytes: [UInt8] = []
  /// The colour the terminal will draw with next; `nil` when unknown.
  var pen: UInt32?

  init(truecolor: Bool) {
    self.truecolor = truecolor
    bytes.reserveCapacity(1 << 16)
  }

  /// Room for at least `count` bytes (and 64 kB) without growing.
  mutating func reserve(_ count: Int) {
    bytes.reserveCapacity(max(1 << 16, count))
  }

  /// Starts a new frame's sequences.
  mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
  }

  /// Resets the colours and clears the screen.
  mutating func clearScreen() {
    append("\u{1B}[0m\u{1B}[2J")
    pen = TerminalCanvas.defaultColor
  }

  /// Moves the cursor to `row`, `column` (0-based).
  mutating func moveCursor(row: Int, column: Int) {
    append("\u{1B}[")
    appendDecimal(row + 1)
    bytes.append(0x3B)  // ;
    appendDecimal(column + 1)
    bytes.append(0x48)  // H
  }

  /// Draws with `color` from here on (`0xRRGGBB`, or the terminal's default).
  mutating func setColor(_ color: UInt32) {
    pen = color
    if color == TerminalCanvas.defaultColor {
      append("\u{1B}[39m")
      return
    }
    let red = Int(color >> 16 & 0xFF)
    let green = Int(color >> 8 & 0xFF)
    let blue = Int(color & 0xFF)
    if truecolor {
      append("\u{1B}[38;2;")
      appendDecimal(red)
      bytes.append(0x3B)
      appendDecimal(green)
      bytes.append(0x3B)
      appendDecimal(blue)
    } else {
      // xterm's 6×6×6 colour cube, indices 16…231.
      let cube = 16 + 36 * ((red * 5 + 127) / 255) + 6 * ((green * 5 + 127) / 255)
      append("\u{1B}[38;5;")
      appendDecimal(cube + (blue * 5 + 127) / 255)
    }
    bytes.append(0x6D)  // m
  }

  /// Appends the UTF-8 bytes of a literal (immortal, so reading it does not allocate).
  private mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  private mutating func appendDecimal(_ value: Int) {
    Self.forEachDigit(of: value) { bytes.append(0x30 + $0) }
  }

  /// Calls `body` with each decimal digit of `value` (≥ 0), most significant first.
  static func forEachDigit(of value: Int, _ body: (UInt8) -> Void) {
    var divisor = 1
    while divisor <= value / 10 { divisor *= 10 }
    var rest = value
    repeat {
      body(UInt8(rest / divisor))
      rest %= divisor
      divisor /= 10
    } while divisor > 0
  }

  /// Appends `scalar` as UTF-8.
  mutating func appendUTF8(_ scalar: UInt32) {
    switch scalar {
    case 0..<0x80:
      bytes.append(UInt8(scalar))
    case 0x80..<0x800:
      bytes.append(UInt8(0xC0 | scalar >> 6))
      bytes.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      bytes.append(UInt8(0xE0 | scalar >> 12))
      bytes.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      bytes.append(UInt8(0x80 | scalar & 0x3F))
    default:
      bytes.append(UInt8(0xF0 | scalar >> 18))
      bytes.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      bytes.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      bytes.append(UInt8(0x80 | scalar & 0x3F))
    }
  }
}

import PulseBarCore

/// One character cell: a Unicode scalar and its foreground colour.
struct TerminalCell: Equatable {
  /// The scalar drawn; 0 only in ``TerminalCanvas``'s "unknown" screen state.
  var scalar: UInt32
  /// `0xRRGGBB`, or ``TerminalCanvas/defaultColor`` for the terminal's own.
  var color: UInt32

  static let blank = TerminalCell(scalar: 0x20, color: TerminalCanvas.defaultColor)
}

/// A grid of cells drawn each frame and a copy of what the terminal shows, so that a
/// frame emits only the cells that changed, as escape sequences in one reusable byte
/// buffer.
///
/// Storage grows only on resize; composing and emitting a frame never allocates.
/// Every cell is assumed one column wide (the view draws only such glyphs).
struct TerminalCanvas {
  /// The colour value that means "the terminal's default foreground".
  static let defaultColor: UInt32 = 0xFF00_0000

  private(set) var rows = 0
  private(set) var columns = 0
  /// Emit 24-bit colours (`COLORTERM` truecolor/24bit), else the 256-colour cube.
  let truecolor: Bool
  /// `[colors]` where set, the view's own palette elsewhere.
  var colors = TerminalColors()
  /// The escape sequences of the last ``render()``.
  private(set) var bytes: [UInt8] = []
  private var cells: [TerminalCell] = []
  private var shown: [TerminalCell] = []
  /// The colour the terminal will draw with next; `nil` when unknown.
  private var pen: UInt32?
  /// The next render starts by clearing the screen (after a resize or ``invalidate()``).
  private var needsClear = true

  init(truecolor: Bool) {
    self.truecolor = truecolor
    bytes.reserveCapacity(1 << 16)
  }

  // MARK: - Size

  /// Sets the grid size; when it changes, clears the screen and forgets what it showed.
  /// Returns true when the size changed.
  @discardableResult
  mutating func resize(rows: Int, columns: Int) -> Bool {
    guard rows != self.rows || columns != self.columns else { return false }
    self.rows = max(0, rows)
    self.columns = max(0, columns)
    let count = self.rows * self.columns
    cells = [TerminalCell](repeating: .blank, count: count)
    shown = [TerminalCell](repeating: .blank, count: count)
    bytes.reserveCapacity(max(1 << 16, count * 32))
    invalidate()
    return true
  }

  /// Assumes the terminal shows a blank screen with an unknown pen: the next render
  /// starts with a clear and draws every non-blank cell.
  mutating func invalidate() {
    for index in shown.indices { shown[index] = .blank }
    pen = nil
    needsClear = true
  }

  // MARK: - Drawing

  /// Blanks every cell of the frame being composed.
  mutating func clear() {
    for index in cells.indices { cells[index] = .blank }
  }

  /// Sets one cell; out-of-range positions are ignored.
  mutating func set(row: Int, column: Int, scalar: UInt32, color: UInt32 = defaultColor) {
    guard row >= 0, row < rows, column >= 0, column < columns else { return }
    cells[row * columns + column] = TerminalCell(scalar: scalar, color: color)
  }

  /// The scalar composed at a cell (tests and the bench read it).
  func scalar(row: Int, column: Int) -> UInt32 {
    cells[row * columns + column].scalar
  }

  /// The colour drawn at `row`, `column` (`0xRRGGBB`, or ``defaultColor``).
  func color(row: Int, column: Int) -> UInt32 { cells[row * columns + column].color }

  /// Writes `text` from `column` on, clipped at the right edge; returns the column after it.
  @discardableResult
  mutating func write(
    _ text: String, row: Int, column: Int, color: UInt32 = defaultColor
  ) -> Int {
    var column = column
    // A source's name comes from the audio server: a control in it would reach the terminal.
    for scalar in text.unicodeScalars {
      let value = UntrustedText.isControl(scalar.value) ? 0x20 : scalar.value
      set(row: row, column: column, scalar: value, color: color)
      column += 1
    }
    return column
  }

  /// Writes a non-negative integer in decimal; returns the column after it.
  @discardableResult
  mutating func write(
    integer value: Int, row: Int, column: Int, color: UInt32 = defaultColor
  ) -> Int {
    var column = column
    Self.forEachDigit(of: max(0, value)) { digit in
      set(row: row, column: column, scalar: 0x30 + UInt32(digit), color: color)
      column += 1
    }
    return column
  }

  /// Writes a non-negative number with one decimal; returns the column after it.
  @discardableResult
  mutating func write(
    tenths value: Double, row: Int, column: Int, color: UInt32 = defaultColor
  ) -> Int {
    let tenths = value.isFinite ? Int((max(0, value) * 10).rounded()) : 0
    var column = write(integer: tenths / 10, row: row, column: column, color: color)
    set(row: row, column: column, scalar: 0x2E, color: color)
    column += 1
    set(row: row, column: column, scalar: 0x30 + UInt32(tenths % 10), color: color)
    return column + 1
  }

  // MARK: - Output

  /// Fills ``bytes`` with the escape sequences that turn the shown screen into the
  /// composed one, and records the composed one as shown.
  mutating func render() {
    bytes.removeAll(keepingCapacity: true)
    if needsClear {
      append("\u{1B}[0m\u{1B}[2J")
      needsClear = false
      pen = Self.defaultColor
    }
    var cursor = -1  // index the terminal's cursor is at; -1 unknown
    for index in cells.indices where cells[index] != shown[index] {
      let cell = cells[index]
      if cursor != index { moveCursor(to: index) }
      if pen != cell.color { setColor(cell.color) }
      appendUTF8(cell.scalar)
      shown[index] = cell
      // At the last column the cursor waits to wrap: treat its position as unknown.
      cursor = (index + 1) % columns == 0 ? -1 : index + 1
    }
  }

  private mutating func moveCursor(to index: Int) {
    append("\u{1B}[")
    appendDecimal(index / columns + 1)
    bytes.append(0x3B)  // ;
    appendDecimal(index % columns + 1)
    bytes.append(0x48)  // H
  }

  private mutating func setColor(_ color: UInt32) {
    pen = color
    if color == Self.defaultColor {
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
  private static func forEachDigit(of value: Int, _ body: (UInt8) -> Void) {
    var divisor = 1
    while divisor <= value / 10 { divisor *= 10 }
    var rest = value
    repeat {
      body(UInt8(rest / divisor))
      rest %= divisor
      divisor /= 10
    } while divisor > 0
  }

  private mutating func appendUTF8(_ scalar: UInt32) {
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

import PulseBarCore

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
  /// `[colors]` where set, the view's own palette elsewhere.
  var colors = TerminalColors()
  /// Writes the escape sequences of a render.
  private var output: TerminalEscapes
  private var cells: [TerminalCell] = []
  private var shown: [TerminalCell] = []
  /// The next render starts by clearing the screen (after a resize or ``invalidate()``).
  private var needsClear = true

  /// A canvas whose colours are 24-bit with `truecolor` (`COLORTERM` truecolor/24bit), else
  /// the 256-colour cube.
  init(truecolor: Bool) {
    output = TerminalEscapes(truecolor: truecolor)
  }

  /// The escape sequences of the last ``render()``.
  var bytes: [UInt8] { output.bytes }

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
    output.reserve(count * 32)
    invalidate()
    return true
  }

  /// Assumes the terminal shows a blank screen with an unknown pen: the next render
  /// starts with a clear and draws every non-blank cell.
  mutating func invalidate() {
    for index in shown.indices { shown[index] = .blank }
    output.pen = nil
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
    TerminalEscapes.forEachDigit(of: max(0, value)) { digit in
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
    output.removeAll()
    if needsClear {
      output.clearScreen()
      needsClear = false
    }
    var cursor = -1  // index the terminal's cursor is at; -1 unknown
    for index in cells.indices where cells[index] != shown[index] {
      let cell = cells[index]
      if cursor != index { output.moveCursor(row: index / columns, column: index % columns) }
      if output.pen != cell.color { output.setColor(cell.color) }
      output.appendUTF8(cell.scalar)
      shown[index] = cell
      // At the last column the cursor waits to wrap: treat its position as unknown.
      cursor = (index + 1) % columns == 0 ? -1 : index + 1
    }
  }
}

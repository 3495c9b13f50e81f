import PulseBarCore

/// Where each part of the view goes in a `rows × columns` terminal: the morph in a
/// square of braille cells at the bottom left, bubbles rising above it, the bars to
/// the right, the status line at the bottom.
struct TerminalLayout {
  let statusRow: Int
  /// The morph's braille box: cells twice as wide as tall make square dots.
  let morphTop: Int
  let morphLeft = 2
  let morphRows: Int
  let morphColumns: Int
  /// The left panel (morph and bubbles) spans columns 0..<panelWidth.
  let panelWidth: Int
  /// Bubbles start at `bubbleBase` (the row above the morph, at its centre column) and
  /// climb `bubbleRows` rows for y = 0 → 1; x uses twice as many columns per unit.
  let bubbleBase: Int
  let bubbleCenter: Int
  let bubbleRows: Int
  /// The bars fill rows barsTop...barsBottom, columns barsLeft..<barsRight.
  let barsTop = 1
  let barsBottom: Int
  let barsLeft: Int
  let barsRight: Int

  /// Whether there is room for more than the status line.
  static func fits(rows: Int, columns: Int) -> Bool { rows >= 8 && columns >= 30 }

  init(rows: Int, columns: Int) {
    statusRow = rows - 1
    morphRows = min(8, max(2, (rows - 3) / 3))
    morphColumns = morphRows * 2
    morphTop = rows - 1 - morphRows
    panelWidth = morphColumns + 2 * morphLeft
    bubbleBase = morphTop - 1
    bubbleCenter = morphLeft + morphColumns / 2
    bubbleRows = max(1, bubbleBase - 1)
    barsBottom = rows - 2
    barsLeft = panelWidth + 1
    barsRight = columns - 1
  }
}

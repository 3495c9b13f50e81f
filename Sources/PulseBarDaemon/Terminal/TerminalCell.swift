import PulseBarCore

/// One character cell: a Unicode scalar and its foreground colour.
struct TerminalCell: Equatable {
  /// The scalar drawn; 0 only in ``TerminalCanvas``'s "unknown" screen state.
  var scalar: UInt32
  /// `0xRRGGBB`, or ``TerminalCanvas/defaultColor`` for the terminal's own.
  var color: UInt32

  static let blank = TerminalCell(scalar: 0x20, color: TerminalCanvas.defaultColor)
}

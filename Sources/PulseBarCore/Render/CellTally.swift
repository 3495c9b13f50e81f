/// Adds up the ``CellSpan``s of the runs a line is drawn from, in order: the line's visible
/// cells (as ``VisibleCells/count(_:markup:)`` counts them) when every two runs meet clean,
/// else `nil` (then the line is counted whole).
package struct CellTally: Sendable {
  private var cells = 0
  private var exact = true
  /// A run was added (the next must start clean: the one before may have shown a character).
  private var started = false
  /// The last run did not end clean.
  private var open = false

  package init() {}

  /// Adds the run after the ones added so far.
  @inline(__always)
  package mutating func add(_ span: CellSpan) {
    guard !span.isEmpty else { return }
    if open || (started && !span.startsClean) { exact = false }
    started = true
    open = !span.endsClean
    cells += span.cells
  }

  /// The line's cells, or `nil` when two runs met where one could change the other's count.
  package var count: Int? { exact ? cells : nil }
}

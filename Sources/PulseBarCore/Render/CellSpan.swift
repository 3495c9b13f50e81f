/// The visible cells of one run of a rendered line's bytes (a literal, a value, a coloured bar),
/// counted once as ``VisibleCells`` counts a whole line, so a frame adds runs' cells instead of
/// reading the line's markup again (``CellTally``).
///
/// Counted from the state a line starts in. The sum of two runs' cells is the cells of the two
/// together when the first ends clean (outside any tag, entity or escape, no joiner or lone
/// regional indicator waiting) and the second starts clean (its first shown scalar starts a
/// character whatever came before, and in polybar markup it does not start with the `{` a `%`
/// before it would open a tag with). Invalid UTF-8 is neither.
package struct CellSpan: Sendable, Equatable {
  package var cells: Int
  package var startsClean: Bool
  package var endsClean: Bool
  /// No bytes at all: the runs around it meet as if it were not there.
  package var isEmpty: Bool

  /// `cells` characters that each start and end clean (figure spaces, ASCII letters and
  /// digits, block elements); empty for 0.
  package static func plain(_ cells: Int) -> CellSpan {
    CellSpan(cells: cells, startsClean: true, endsClean: true, isEmpty: cells == 0)
  }

  /// A whole tag (`<span alpha="50%">`, `</span>`): no cells, clean at both ends.
  package static let tag = CellSpan(cells: 0, startsClean: true, endsClean: true, isEmpty: false)
}

extension VisibleCells {
  /// The ``CellSpan`` of `bytes` in `markup`.
  package static func span(of bytes: some Collection<UInt8>, markup: Markup) -> CellSpan {
    guard !bytes.isEmpty else { return .plain(0) }
    var stripper = MarkupStripper(markup: markup == .pangoInJSON ? .pango : markup)
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var json = JSONUnescaper()
    var valid = true
    var first: Unicode.Scalar?
    loop: while true {
      let scalar: Unicode.Scalar
      switch decoder.decode(&iterator) {
      case .scalarValue(let value): scalar = value
      case .error:
        valid = false
        scalar = "\u{FFFD}"
      case .emptyInput: break loop
      }
      if first == nil { first = scalar }
      if markup == .pangoInJSON {
        if let decoded = json.feed(scalar) { stripper.feed(decoded) }
      } else {
        stripper.feed(scalar)
      }
    }
    let neutral = stripper.isNeutral && json.isNeutral
    stripper.finish()
    let opensTag = markup == .polybar && first == "{"
    return CellSpan(
      cells: stripper.counter.cells,
      startsClean: valid && !opensTag
        && (stripper.firstShown.map(CellCounter.startsCharacter) ?? true),
      endsClean: valid && neutral && !stripper.counter.joinsNext, isEmpty: false)
  }
}

/// Glyphs encoded once as UTF-8 in one flat array, so drawing one costs no
/// reference counting (an array of arrays retains the inner array on every read).
///
/// Made for a line's markup, it also keeps each glyph's ``CellSpan``, so a frame adds the cells
/// it drew without reading them (``span(_:)``).
struct GlyphTable: Sendable {
  private let storage: [UInt8]
  private let starts: [Int]
  /// Per glyph, its cells in the markup the table was made for (empty without one).
  private let spans: [CellSpan]
  /// Glyphs in the table.
  let count: Int

  init(_ glyphs: [String], markup: VisibleCells.Markup? = nil) {
    var storage: [UInt8] = []
    var starts: [Int] = [0]
    for glyph in glyphs {
      storage.append(contentsOf: glyph.utf8)
      starts.append(storage.count)
    }
    self.storage = storage
    self.starts = starts
    count = glyphs.count
    spans =
      markup.map { markup in glyphs.map { VisibleCells.span(of: $0.utf8, markup: markup) } }
      ?? []
  }

  var isEmpty: Bool { count == 0 }

  /// Calls `body` with glyph `index`'s bytes (`index` wraps around the table).
  @inline(__always)
  func withGlyph<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let glyph = index < count ? index : index % count  // skip the division in the usual case
    return storage.withUnsafeBufferPointer { all in
      body(UnsafeBufferPointer(rebasing: all[starts[glyph]..<starts[glyph + 1]]))
    }
  }

  /// Glyph `index`'s ``CellSpan`` (`index` wraps around); the table was made with a markup.
  @inline(__always)
  func span(_ index: Int) -> CellSpan {
    spans[index < count ? index : index % count]
  }
}

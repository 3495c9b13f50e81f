/// A bubble alive in the scene, in units of `maxHeight` from its start point
/// (x right, y up), as every renderer reads it.
package struct Bubble: Sendable, Equatable {
  /// Unique per scene, increasing; lets a GUI track a bubble across frames.
  package var id: UInt64
  package var x: Float
  package var y: Float
  package var scale: Float
  package var alpha: Float
  /// Index into ``Configuration/bubbleGlyphs``.
  package var glyphIndex: Int

  package init(id: UInt64, x: Float, y: Float, scale: Float, alpha: Float, glyphIndex: Int) {
    self.id = id
    self.x = x
    self.y = y
    self.scale = scale
    self.alpha = alpha
    self.glyphIndex = glyphIndex
  }
}

/// A bubble alive in the scene, in units of `maxHeight` from its start point
/// (x right, y up), as every renderer reads it.
public struct Bubble: Sendable, Equatable {
  /// Unique per scene, increasing; lets a GUI track a bubble across frames.
  public var id: UInt64
  public var x: Float
  public var y: Float
  public var scale: Float
  public var alpha: Float
  /// Index into ``Configuration/bubbleGlyphs``.
  public var glyphIndex: Int

  public init(id: UInt64, x: Float, y: Float, scale: Float, alpha: Float, glyphIndex: Int) {
    self.id = id
    self.x = x
    self.y = y
    self.scale = scale
    self.alpha = alpha
    self.glyphIndex = glyphIndex
  }
}

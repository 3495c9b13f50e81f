/// The text format's play/pause glyph for a morph value: four frames from the pause
/// sign to the play triangle, so the 0.25 s morph shows at least three distinct glyphs.
public enum MorphGlyph {
  /// Glyph frames from pause (morph 0) to play (morph 1).
  public static let frames: [String] = ["⏸", "⏯", "▷", "▶"]

  /// Index into ``frames`` for a morph value in 0...1: the nearest frame, so 0 and 1
  /// are the pure pause and play glyphs and the in-between frames share the middle.
  public static func frameIndex(for morph: Float) -> Int {
    let last = frames.count - 1
    let scaled = (min(1, max(0, morph)) * Float(last)).rounded()
    return Int(scaled)
  }
}

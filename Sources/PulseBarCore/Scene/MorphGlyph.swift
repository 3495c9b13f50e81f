/// The text format's play/pause glyph for a morph value.
/// PROVISIONAL: the scene issue draws at least three distinct frames.
public enum MorphGlyph {
  /// Glyph frames from pause (morph 0) to play (morph 1).
  public static let frames: [String] = ["⏸", "▶"]

  /// Index into ``frames`` for a morph value in 0...1.
  public static func frameIndex(for morph: Float) -> Int {
    morph < 0.5 ? 0 : frames.count - 1
  }
}

/// The text format's play/pause glyph for a morph value: frames from the pause sign to the
/// play triangle, so the 0.25 s morph shows at least three distinct glyphs.
///
/// The default frames are `‖ ▮ ▸ ►` (U+2016, U+25AE, U+25B8, U+25BA): each is one cell in both
/// monospace fonts desktops ship, DejaVu Sans Mono and Noto Sans Mono, and draws in DejaVu Sans
/// and in Noto Sans (through Noto Sans Symbols 2). ▷ and ▶ (U+25B7, U+25B6) are two cells in
/// Noto Sans Mono (Waybar's module moved 8 px on every play/pause change); the media glyphs
/// ⏸ and ⏯ are in neither DejaVu nor Noto Sans Mono. A font that has them can still be used
/// through `output.morph_glyphs`.
package enum MorphGlyph {
  /// Default glyph frames from pause (morph 0) to play (morph 1).
  package static let defaultFrames: [String] = ["‖", "▮", "▸", "►"]

  /// Index into `frames` glyphs for a morph value in 0...1: the nearest frame, so 0 and 1
  /// are the pure pause and play glyphs and the in-between frames share the middle.
  package static func frameIndex(for morph: Float, frames: Int = defaultFrames.count) -> Int {
    let last = max(0, frames - 1)
    let scaled = (min(1, max(0, morph)) * Float(last)).rounded()
    return Int(scaled)
  }
}

/// The text format's play/pause glyph for a morph value: frames from the pause sign to the
/// play triangle, so the 0.25 s morph shows at least three distinct glyphs.
///
/// The default frames are `‖ ▮ ▷ ▶` (U+2016, U+25AE, U+25B7, U+25B6), chosen because every one
/// is in DejaVu Sans and DejaVu Sans Mono (Debian's default fonts, `fonts-dejavu-core`) and is
/// one cell wide. The Unicode media glyphs ⏸ (U+23F8) and ⏯ (U+23EF) are not in DejaVu:
/// Waybar drew them as a hex box and polybar dropped them. A font that has them can still be
/// used through `output.morph_glyphs`.
package enum MorphGlyph {
  /// Default glyph frames from pause (morph 0) to play (morph 1).
  package static let defaultFrames: [String] = ["‖", "▮", "▷", "▶"]

  /// Index into `frames` glyphs for a morph value in 0...1: the nearest frame, so 0 and 1
  /// are the pure pause and play glyphs and the in-between frames share the middle.
  package static func frameIndex(for morph: Float, frames: Int = defaultFrames.count) -> Int {
    let last = max(0, frames - 1)
    let scaled = (min(1, max(0, morph)) * Float(last)).rounded()
    return Int(scaled)
  }
}

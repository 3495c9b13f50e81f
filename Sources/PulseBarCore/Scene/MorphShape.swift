/// The play/pause glyph as the seed's `drawRect` fills it: two quadrilaterals that are
/// the pause sign's two bars at morph 0 and together the play triangle at morph 1.
///
/// For a box `w × h`: `minWidth = 0.32 w`, `width = minWidth + (w/2 − minWidth)·v`,
/// `h1 = h/4·v`, `h2 = h/2·v`; left quad (0,0) (width,h1) (width,h−h1) (0,h); right quad
/// (w−width,h1) (w,h2) (w,h−h2) (w−width,h−h1). A fixed-size value, no allocation.
package struct MorphShape: Sendable, Equatable {
  package var left: MorphQuad
  package var right: MorphQuad

  /// The shape at morph value `value` (0 = pause, 1 = play) in a `width × height` box.
  package init(value: Float, width: Float = 1, height: Float = 1) {
    let minWidth = width * 0.32
    let barWidth = minWidth + (width / 2 - minWidth) * value
    let h1 = height / 4 * value
    let h2 = height / 2 * value
    left = MorphQuad(
      SIMD2(0, 0), SIMD2(barWidth, h1), SIMD2(barWidth, height - h1), SIMD2(0, height))
    right = MorphQuad(
      SIMD2(width - barWidth, h1), SIMD2(width, h2), SIMD2(width, height - h2),
      SIMD2(width - barWidth, height - h1))
  }

  /// The shape for morph value `v` in a unit box (x right, y down).
  package init(morph v: Float) {
    self.init(value: v)
  }

  /// Corner `corner` (0…3) of quad `quad` (0 = left, 1 = right).
  package subscript(quad: Int, corner: Int) -> SIMD2<Float> {
    quad == 0 ? left[corner] : right[corner]
  }

  /// Eight corners: the left quad's four, then the right quad's. Allocates an array;
  /// per-frame code reads ``left``, ``right`` or the subscript instead.
  package var corners: [SIMD2<Float>] {
    [left.p0, left.p1, left.p2, left.p3, right.p0, right.p1, right.p2, right.p3]
  }

  /// True when `point` is inside either quad (the filled glyph).
  package func contains(_ point: SIMD2<Float>) -> Bool {
    left.contains(point) || right.contains(point)
  }
}

/// A convex quadrilateral, corners in drawing order (x right, y down).
package struct MorphQuad: Sendable, Equatable {
  package var p0: SIMD2<Float>
  package var p1: SIMD2<Float>
  package var p2: SIMD2<Float>
  package var p3: SIMD2<Float>

  package init(_ p0: SIMD2<Float>, _ p1: SIMD2<Float>, _ p2: SIMD2<Float>, _ p3: SIMD2<Float>) {
    self.p0 = p0
    self.p1 = p1
    self.p2 = p2
    self.p3 = p3
  }

  /// Corner `index` in 0..<4.
  package subscript(index: Int) -> SIMD2<Float> {
    switch index {
    case 0: return p0
    case 1: return p1
    case 2: return p2
    default: return p3
    }
  }

  /// True when `point` lies inside or on the edge. Works for either winding and for
  /// the degenerate quads the morph makes (a triangle with a doubled corner at v = 1).
  package func contains(_ point: SIMD2<Float>) -> Bool {
    let a = Self.side(p0, p1, point)
    let b = Self.side(p1, p2, point)
    let c = Self.side(p2, p3, point)
    let d = Self.side(p3, p0, point)
    let allAbove = a >= 0 && b >= 0 && c >= 0 && d >= 0
    let allBelow = a <= 0 && b <= 0 && c <= 0 && d <= 0
    return allAbove || allBelow
  }

  /// The cross product of edge `from → to` with `from → point`.
  private static func side(_ from: SIMD2<Float>, _ to: SIMD2<Float>, _ point: SIMD2<Float>)
    -> Float
  {
    let edge = to - from
    let offset = point - from
    return edge.x * offset.y - edge.y * offset.x
  }
}

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

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

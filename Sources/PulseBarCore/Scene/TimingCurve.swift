/// A Core Animation timing function: a cubic Bezier from (0, 0) to (1, 1) with two
/// control points, mapping linear time `x` in 0...1 to eased progress `y`.
///
/// `value(at:)` solves the curve's x(t) = x for the parameter t (Newton steps, with a
/// bisection fallback where the slope is flat) and returns y(t), as
/// `CAMediaTimingFunction` does. Pure arithmetic, no allocation.
package struct TimingCurve: Sendable, Equatable {
  /// First control point.
  package var x1: Double
  package var y1: Double
  /// Second control point.
  package var x2: Double
  package var y2: Double

  package init(x1: Double, y1: Double, x2: Double, y2: Double) {
    self.x1 = x1
    self.y1 = y1
    self.x2 = x2
    self.y2 = y2
  }

  /// `kCAMediaTimingFunctionEaseOut`: control points (0, 0) and (0.58, 1).
  package static let easeOut = TimingCurve(x1: 0, y1: 0, x2: 0.58, y2: 1)

  /// Eased progress for linear progress `x` (clamped to 0...1).
  package func value(at x: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    let t = parameter(forX: x)
    return Self.bezier(t, y1, y2)
  }

  /// The curve parameter whose x coordinate is `x`.
  private func parameter(forX x: Double) -> Double {
    // Newton from t = x can crawl on an ease-out's flat foot; for the curve every frame
    // uses, start from a table instead, so one or two steps reach the tolerance.
    var t = self == .easeOut ? Self.easeOutStart(x) : x
    for _ in 0..<8 {
      let error = Self.bezier(t, x1, x2) - x
      if abs(error) < 1e-12 { return t }
      let slope = Self.derivative(t, x1, x2)
      if abs(slope) < 1e-9 { break }
      t -= error / slope
    }
    // Newton did not converge (flat slope or overshoot): bisect, x(t) is monotonic.
    var low = 0.0
    var high = 1.0
    t = x
    for _ in 0..<64 {
      let value = Self.bezier(t, x1, x2)
      if abs(value - x) < 1e-12 { break }
      if value < x { low = t } else { high = t }
      t = (low + high) / 2
    }
    return t
  }

  /// t for x = i/256 on ``easeOut``, by bisection once, when a frame first eases. Inline, not
  /// an array: made on the engine's thread inside a frame, it allocates nothing (as an array
  /// it was the scene bench's one allocation in 60,000 frames).
  private static let easeOutTable = InlineArray<257, Double> { index in
    let x = Double(index) / 256
    var low = 0.0
    var high = 1.0
    for _ in 0..<60 {
      let middle = (low + high) / 2
      if bezier(middle, easeOut.x1, easeOut.x2) < x { low = middle } else { high = middle }
    }
    return (low + high) / 2
  }

  /// A starting t for x on ``easeOut``: the table, interpolated.
  private static func easeOutStart(_ x: Double) -> Double {
    let position = x * 256
    let index = min(255, Int(position))
    let fraction = position - Double(index)
    return easeOutTable[index] + (easeOutTable[index + 1] - easeOutTable[index]) * fraction
  }

  /// One coordinate of the Bezier with end points 0 and 1 and control values `c1`, `c2`.
  private static func bezier(_ t: Double, _ c1: Double, _ c2: Double) -> Double {
    let u = 1 - t
    return 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t
  }

  /// d/dt of ``bezier(_:_:_:)``.
  private static func derivative(_ t: Double, _ c1: Double, _ c2: Double) -> Double {
    let u = 1 - t
    return 3 * u * u * c1 + 6 * u * t * (c2 - c1) + 3 * t * t * (1 - c2)
  }
}

// Independent reference formulas for the scene tests: written from docs/DESIGN.md and the seeds,
// in Double, by brute force (bisection, fine integration), sharing no code with the scene.

/// `kCAMediaTimingFunctionEaseOut` by bisection on x(t) = 3(1−t)t²·0.58 + t³,
/// y(t) = 3(1−t)t² + t³ (control points (0, 0) and (0.58, 1)).
func referenceEaseOut(_ x: Double) -> Double {
  if x <= 0 { return 0 }
  if x >= 1 { return 1 }
  var low = 0.0
  var high = 1.0
  for _ in 0..<200 {
    let t = (low + high) / 2
    let value = 3 * (1 - t) * t * t * 0.58 + t * t * t
    if value < x { low = t } else { high = t }
  }
  let t = (low + high) / 2
  return 3 * (1 - t) * t * t + t * t * t
}

/// A point on the cubic Bezier from (0, 0) with the given control and end points.
func referenceBezier(
  _ t: Double, _ c1: (Double, Double), _ c2: (Double, Double), _ end: (Double, Double)
) -> (x: Double, y: Double) {
  let u = 1 - t
  let x = 3 * u * u * t * c1.0 + 3 * u * t * t * c2.0 + t * t * t * end.0
  let y = 3 * u * u * t * c1.1 + 3 * u * t * t * c2.1 + t * t * t * end.1
  return (x, y)
}

/// The point a fraction `fraction` of the arc length along that Bezier, by integrating
/// the length over 20,000 steps.
func referencePacedPoint(
  _ fraction: Double, _ c1: (Double, Double), _ c2: (Double, Double), _ end: (Double, Double)
) -> (x: Double, y: Double) {
  let steps = 20_000
  var lengths = [0.0]
  var previous = (x: 0.0, y: 0.0)
  for step in 1...steps {
    let point = referenceBezier(Double(step) / Double(steps), c1, c2, end)
    let dx = point.x - previous.x
    let dy = point.y - previous.y
    lengths.append(lengths[step - 1] + (dx * dx + dy * dy).squareRoot())
    previous = point
  }
  let target = fraction * lengths[steps]
  var index = 0
  while index < steps && lengths[index + 1] < target { index += 1 }
  let span = lengths[index + 1] - lengths[index]
  let within = span > 0 ? (target - lengths[index]) / span : 0
  return referenceBezier((Double(index) + within) / Double(steps), c1, c2, end)
}

/// True when `actual` is within `tolerance` of `expected`.
func isClose(_ actual: Float, _ expected: Double, within tolerance: Double = 1e-5) -> Bool {
  abs(Double(actual) - expected) <= tolerance
}

/// One bubble's flight: the seed's cubic Bezier from its start point to the top, walked
/// at constant speed (`kCAAnimationPaced`) through an arc-length table made once at spawn.
///
/// Coordinates are in units of `maxHeight`, origin at the start point, y up; control
/// points sit at 20 % and 60 % of the height and the end at the full height. The seed
/// also appends a second segment back through the start point (a quirk of its
/// `addCurveToPoint` call); docs/DESIGN.md ("Scene") keeps the single rising curve and so does this.
struct BubblePath: Sendable {
  /// Segments of the arc-length table: enough that linear interpolation within a
  /// segment stays within 1e-4 of the true paced position.
  static let segments = 64

  let control1: SIMD2<Float>
  let control2: SIMD2<Float>
  let end: SIMD2<Float>
  /// Arc length from the start to parameter `i / segments`, for `i` in 0...segments.
  private var lengths: InlineArray<65, Float>

  init(control1: SIMD2<Float>, control2: SIMD2<Float>, end: SIMD2<Float>) {
    self.control1 = control1
    self.control2 = control2
    self.end = end
    lengths = InlineArray(repeating: 0)
    var previous = SIMD2<Float>(0, 0)
    var total: Float = 0
    for index in 1...Self.segments {
      let point = self.point(at: Float(index) / Float(Self.segments))
      let step = point - previous
      total += (step.x * step.x + step.y * step.y).squareRoot()
      lengths[index] = total
      previous = point
    }
  }

  /// The curve's total arc length.
  var length: Float { lengths[Self.segments] }

  /// The point at Bezier parameter `t` in 0...1 (not paced).
  func point(at t: Float) -> SIMD2<Float> {
    let u = 1 - t
    let b1 = 3 * u * u * t
    let b2 = 3 * u * t * t
    let b3 = t * t * t
    return control1 * b1 + control2 * b2 + end * b3
  }

  /// The point a fraction `fraction` (0...1) of the arc length along the curve.
  func pacedPoint(at fraction: Float) -> SIMD2<Float> {
    if fraction <= 0 { return SIMD2(0, 0) }
    if fraction >= 1 { return end }
    let target = fraction * length
    var low = 0
    var high = Self.segments
    while high - low > 1 {
      let middle = (low + high) / 2
      if lengths[middle] <= target { low = middle } else { high = middle }
    }
    let span = lengths[high] - lengths[low]
    let within = span > 0 ? (target - lengths[low]) / span : 0
    return point(at: (Float(low) + within) / Float(Self.segments))
  }
}

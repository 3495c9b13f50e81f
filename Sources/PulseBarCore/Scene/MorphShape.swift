/// The play/pause glyph's geometry: the seed's `drawRect` in a unit box
/// (x right, y down), two quadrilaterals of four corners each.
///
/// For a box `w × h`: `minWidth = 0.32 w`, `width = minWidth + (w/2 − minWidth)·v`,
/// `h1 = h/4·v`, `h2 = h/2·v`; left quad (0,0) (width,h1) (width,h−h1) (0,h);
/// right quad (w−width,h1) (w,h2) (w,h−h2) (w−width,h−h1).
public struct MorphShape: Sendable, Equatable {
  /// Eight corners: the left quad's four, then the right quad's.
  public var corners: [SIMD2<Float>] { [p0, p1, p2, p3, p4, p5, p6, p7] }
  private var p0, p1, p2, p3, p4, p5, p6, p7: SIMD2<Float>

  /// The shape for morph value `v` (0 = pause bars, 1 = play triangle) in a unit box.
  public init(morph v: Float) {
    let width: Float = 0.32 + (0.5 - 0.32) * v
    let h1 = v / 4
    let h2 = v / 2
    p0 = SIMD2(0, 0)
    p1 = SIMD2(width, h1)
    p2 = SIMD2(width, 1 - h1)
    p3 = SIMD2(0, 1)
    p4 = SIMD2(1 - width, h1)
    p5 = SIMD2(1, h2)
    p6 = SIMD2(1, 1 - h2)
    p7 = SIMD2(1 - width, 1 - h1)
  }

  /// Corner `corner` (0…3) of quad `quad` (0 = left, 1 = right).
  public subscript(quad: Int, corner: Int) -> SIMD2<Float> {
    switch quad * 4 + corner {
    case 0: p0
    case 1: p1
    case 2: p2
    case 3: p3
    case 4: p4
    case 5: p5
    case 6: p6
    default: p7
    }
  }
}

import Testing

@testable import PulseBarCore

/// The play/pause morph: 0.25 s ease-out toward the new state, restarted on reversal,
/// and the seed's two quads.
@Suite struct SceneMorphTests {
  /// Defaults without the state debounce: these tests time the morph from the state change
  /// (``PlaybackDebounceTests`` covers the debounce).
  let configuration: Configuration = {
    var configuration = Configuration()
    configuration.stateDebounce = 0
    return configuration
  }()

  @Test func easeOutCurveMatchesBezier() {
    for x in stride(from: 0.0, through: 1.0, by: 0.05) {
      let value = TimingCurve.easeOut.value(at: x)
      #expect(abs(value - referenceEaseOut(x)) < 1e-9, "x = \(x)")
    }
  }

  @Test func morphFollowsEaseOutAfterFlip() {
    var scene = Scene(configuration: configuration)
    scene.advance(to: 0.5, activity: .none, signalPresent: false, onset: false)
    #expect(scene.morph == 0)
    scene.advance(to: 1.0, activity: .running, signalPresent: true, onset: false)
    #expect(scene.state == .playing)
    #expect(scene.morph == 0)
    #expect(scene.isAnimating)
    scene.advance(to: 1.125, activity: .running, signalPresent: true, onset: false)
    let half = referenceEaseOut(0.5)
    #expect(isClose(scene.morph, half), "morph \(scene.morph) vs \(half)")
    #expect(half > 0.5)  // ease-out is ahead of linear
    scene.advance(to: 1.25, activity: .running, signalPresent: true, onset: false)
    #expect(scene.morph == 1)
    #expect(!scene.isAnimating)
  }

  @Test func reversalRestartsFromCurrentValue() {
    var scene = Scene(configuration: configuration)
    scene.advance(to: 0, activity: .running, signalPresent: true, onset: false)
    scene.advance(to: 0.1, activity: .corked, signalPresent: false, onset: false)
    #expect(scene.state == .paused)
    let atFlip = referenceEaseOut(0.1 / 0.25)
    #expect(isClose(scene.morph, atFlip), "morph \(scene.morph) vs \(atFlip)")
    scene.advance(to: 0.225, activity: .corked, signalPresent: false, onset: false)
    let expected = atFlip * (1 - referenceEaseOut(0.5))
    #expect(isClose(scene.morph, expected), "morph \(scene.morph) vs \(expected)")
    scene.advance(to: 0.349, activity: .corked, signalPresent: false, onset: false)
    #expect(scene.morph > 0)
    scene.advance(to: 0.35, activity: .corked, signalPresent: false, onset: false)
    #expect(scene.morph == 0)
  }

  @Test func pausedToStoppedKeepsTheMorphStill() {
    var scene = Scene(configuration: configuration)
    scene.advance(to: 0, activity: .corked, signalPresent: false, onset: false)
    scene.advance(to: 0.1, activity: .none, signalPresent: false, onset: false)
    #expect(scene.morph == 0)
    #expect(!scene.isAnimating)
  }

  @Test func morphShapeAtPauseIsTheSeedsTwoBars() {
    let shape = Scene.morphShape(0)
    #expect(shape.left == MorphQuad(SIMD2(0, 0), SIMD2(0.32, 0), SIMD2(0.32, 1), SIMD2(0, 1)))
    #expect(shape.right == MorphQuad(SIMD2(0.68, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0.68, 1)))
  }

  @Test func morphShapeAtPlayIsTheSeedsTriangle() {
    let shape = Scene.morphShape(1)
    #expect(
      shape.left == MorphQuad(SIMD2(0, 0), SIMD2(0.5, 0.25), SIMD2(0.5, 0.75), SIMD2(0, 1)))
    #expect(
      shape.right == MorphQuad(SIMD2(0.5, 0.25), SIMD2(1, 0.5), SIMD2(1, 0.5), SIMD2(0.5, 0.75)))
  }

  @Test func morphShapeInABoxFollowsTheSeedsFormulas() {
    let w: Float = 40
    let h: Float = 20
    let v: Float = 0.5
    let shape = MorphShape(value: v, width: w, height: h)
    // minWidth 12.8, width 12.8 + 7.2·0.5 = 16.4, h1 = 2.5, h2 = 5.
    let expectedLeft: [SIMD2<Float>] = [[0, 0], [16.4, 2.5], [16.4, 17.5], [0, 20]]
    let expectedRight: [SIMD2<Float>] = [[23.6, 2.5], [40, 5], [40, 15], [23.6, 17.5]]
    for corner in 0..<4 {
      let left = shape.left[corner] - expectedLeft[corner]
      let right = shape.right[corner] - expectedRight[corner]
      #expect(abs(left.x) < 1e-4 && abs(left.y) < 1e-4, "left corner \(corner)")
      #expect(abs(right.x) < 1e-4 && abs(right.y) < 1e-4, "right corner \(corner)")
    }
  }

  @Test func morphShapeContainsTheRightPoints() {
    let pause = Scene.morphShape(0)
    #expect(pause.contains(SIMD2(0.1, 0.5)))
    #expect(pause.contains(SIMD2(0.9, 0.5)))
    #expect(!pause.contains(SIMD2(0.5, 0.5)))  // the gap between the bars
    let play = Scene.morphShape(1)
    #expect(play.contains(SIMD2(0.5, 0.5)))
    #expect(play.contains(SIMD2(0.9, 0.5)))
    #expect(!play.contains(SIMD2(0.9, 0.2)))  // above the triangle's upper edge
    #expect(!play.contains(SIMD2(0.9, 0.8)))
  }

  @Test func textGlyphShowsAtLeastThreeFramesThroughTheMorph() {
    #expect(Set(MorphGlyph.defaultFrames).count >= 3)
    #expect(MorphGlyph.frameIndex(for: 0) == 0)
    #expect(MorphGlyph.frameIndex(for: 1) == MorphGlyph.defaultFrames.count - 1)
    var scene = Scene(configuration: configuration)
    var seen = Set<Int>()
    for frame in 0...20 {
      scene.advance(to: Double(frame) / 60, activity: .running, signalPresent: true, onset: false)
      seen.insert(MorphGlyph.frameIndex(for: scene.morph))
    }
    #expect(seen.count >= 3, "frames seen: \(seen.sorted())")
  }
}

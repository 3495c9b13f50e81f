import Testing

@testable import PulseBarCore

/// Bubbles: spawned by onsets while playing, paced Bezier, scale, fade, limits, seed.
@Suite struct SceneBubbleTests {
  @Test func splitMix64MatchesItsReferenceOutputs() {
    var random = SeededRandom(seed: 0)
    #expect(random.next() == 0xE220_A839_7B1D_CDAF)
    #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    #expect(random.next() == 0x06C4_5D18_8009_454F)
  }

  @Test(arguments: [0.0, 0.25, 0.5, 1.0, 2.0, 2.9, 3.5, 3.99])
  func bubbleFollowsTheSeedsFormulas(age: Double) {
    var configuration = Configuration()
    configuration.seed = 42
    var scene = Scene(configuration: configuration)
    let start = 10.0
    scene.advance(to: start, activity: .running, signalPresent: true, onset: true)
    #expect(scene.bubbles.count == 1)
    scene.advance(to: start + age, activity: .running, signalPresent: true, onset: false)
    guard let bubble = scene.bubbles.first else {
      Issue.record("bubble gone at age \(age)")
      return
    }

    // The seed's draws, in its order: glyph, end x, control 1 x, control 2 x;
    // x = rand·(maxLeft + maxRight) − maxLeft, in units of maxHeight (150).
    var random = SeededRandom(seed: 42)
    let glyph = Int(random.next() % 4)
    func x() -> Double { (Double(random.next() >> 40) / 16_777_216 * 100 - 50) / 150 }
    let end = (x(), 1.0)
    let control1 = (x(), 0.2)
    let control2 = (x(), 0.6)

    let eased = referenceEaseOut(age / 4)
    let point = referencePacedPoint(eased, control1, control2, end)
    let scale = 0.1 + 0.9 * min(1, eased * 4 / 0.5)
    let alpha = 1 - 0.9 * min(1, max(0, (eased * 4 - 0.6 * 4) / (0.4 * 4)))

    #expect(bubble.glyphIndex == glyph)
    #expect(isClose(bubble.x, point.x, within: 2e-4), "x \(bubble.x) vs \(point.x)")
    #expect(isClose(bubble.y, point.y, within: 2e-4), "y \(bubble.y) vs \(point.y)")
    #expect(isClose(bubble.scale, scale), "scale \(bubble.scale) vs \(scale)")
    #expect(isClose(bubble.alpha, alpha), "alpha \(bubble.alpha) vs \(alpha)")
  }

  @Test func bubbleIsRemovedAtTheEndOfItsLife() {
    var scene = Scene(configuration: Configuration())
    scene.advance(to: 0, activity: .running, signalPresent: true, onset: true)
    scene.advance(to: 3.999, activity: .running, signalPresent: true, onset: false)
    #expect(scene.bubbles.count == 1)
    #expect(scene.bubbles[0].y > 0.99)
    #expect(isClose(scene.bubbles[0].alpha, 0.1, within: 1e-3))
    scene.advance(to: 4, activity: .running, signalPresent: true, onset: false)
    #expect(scene.bubbles.isEmpty)
  }

  @Test func noBubblesWithoutPlayback() {
    var scene = Scene(configuration: Configuration())
    for frame in 0..<120 {
      let time = Double(frame) / 60
      let activity: StreamActivity = frame < 40 ? .none : (frame < 80 ? .corked : .running)
      scene.advance(to: time, activity: activity, signalPresent: false, onset: true)
      #expect(scene.bubbles.isEmpty, "frame \(frame)")
    }
    // A stream that never played stays `stopped` until it was silent for the silence timeout.
    #expect(scene.state == .stopped)
  }

  @Test func minIntervalAndMaximumAreRespected() {
    var scene = Scene(configuration: Configuration())  // 0.25 s apart, 6 alive, 4 s each
    var spawnTimes: [Double] = []
    var lastID: UInt64?
    for frame in 0..<(60 * 5) {
      let time = Double(frame) / 60
      scene.advance(to: time, activity: .running, signalPresent: true, onset: true)
      #expect(scene.bubbles.count <= 6)
      if let newest = scene.bubbles.last, newest.id != lastID {
        spawnTimes.append(time)
        lastID = newest.id
      }
    }
    // Six every 0.25 s, then full until the first dies at 4 s; then one every 0.25 s.
    #expect(spawnTimes == [0, 0.25, 0.5, 0.75, 1, 1.25, 4, 4.25, 4.5, 4.75])
  }

  @Test func idsIncreaseAndBubblesKeepTheirOrder() {
    var scene = Scene(configuration: Configuration())
    for frame in 0..<60 {
      scene.advance(
        to: Double(frame) / 60, activity: .running, signalPresent: true, onset: true)
    }
    let ids = scene.bubbles.map(\.id)
    #expect(ids == [0, 1, 2, 3])
  }

  @Test func sameSeedGivesTheSameBubbles() {
    #expect(run(seed: 7) == run(seed: 7))
    #expect(run(seed: 7) != run(seed: 8))
  }

  @Test func glyphsComeFromTheConfiguredList() {
    var configuration = Configuration()
    configuration.bubbleGlyphs = ["a", "b"]
    configuration.bubbleMax = 100
    configuration.bubbleMinInterval = 0
    var scene = Scene(configuration: configuration)
    var seen = Set<Int>()
    for frame in 0..<60 {
      scene.advance(
        to: Double(frame) / 60, activity: .running, signalPresent: true, onset: true)
      seen.formUnion(scene.bubbles.map(\.glyphIndex))
    }
    #expect(seen == [0, 1])
  }

  /// Every bubble of two seconds with an onset every 0.3 s.
  private func run(seed: UInt64) -> [[Bubble]] {
    var configuration = Configuration()
    configuration.seed = seed
    var scene = Scene(configuration: configuration)
    var frames: [[Bubble]] = []
    for frame in 0..<120 {
      let onset = frame % 18 == 0
      scene.advance(
        to: Double(frame) / 60, activity: .running, signalPresent: true, onset: onset)
      frames.append(scene.bubbles)
    }
    return frames
  }
}

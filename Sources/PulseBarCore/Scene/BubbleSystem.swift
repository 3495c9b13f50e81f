/// The bubbles of the seed's "live" button, spawned by onsets instead of a timer.
///
/// Each bubble lives `bubbleDuration` seconds under one ease-out group timing (as the
/// seed's `CAAnimationGroup`): with `g = easeOut(age / duration)`, the bubble is a
/// fraction `g` of the way along its paced path, its scale goes 0.1 → 1 over the
/// group's first 0.5 s (`0.1 + 0.9·min(1, g·duration / 0.5)`), and its opacity 1 → 0.1
/// over the last 40 % (`1 − 0.9·clamp((g − 0.6) / 0.4)`). It is removed at the end.
///
/// Storage is reserved for `bubbleMax` bubbles at init; advancing never allocates.
package struct BubbleSystem: Sendable {
  /// Seconds the scale animation takes, from the seed.
  package static let scaleDuration = 0.5
  /// Fraction of a bubble's life over which it fades, from the seed.
  package static let fadeFraction = 0.4

  /// Live bubbles, oldest first.
  package private(set) var bubbles: [Bubble] = []
  private var paths: [BubblePath] = []
  private var spawnTimes: [Double] = []
  private var random: SeededRandom
  private var nextID: UInt64 = 0
  private var lastSpawn = -Double.infinity
  private let maximum: Int
  private let minInterval: Double
  private let duration: Double
  private let glyphCount: Int
  private let maxLeft: Float
  private let maxRight: Float
  private let maxHeight: Float

  package init(configuration: Configuration) {
    random = SeededRandom(seed: configuration.seed)
    maximum = max(0, configuration.bubbleMax)
    minInterval = configuration.bubbleMinInterval
    duration = configuration.bubbleDuration
    glyphCount = configuration.bubbleGlyphs.count
    maxLeft = configuration.bubbleMaxLeft
    maxRight = configuration.bubbleMaxRight
    maxHeight = configuration.bubbleMaxHeight
    bubbles.reserveCapacity(maximum)
    paths.reserveCapacity(maximum)
    spawnTimes.reserveCapacity(maximum)
  }

  /// Steps every bubble to `time`, drops the finished ones, then spawns one when
  /// `spawn` is set and the min interval and the maximum allow it.
  package mutating func advance(to time: Double, spawn: Bool) {
    var index = 0
    while index < bubbles.count {
      let age = time - spawnTimes[index]
      if age >= duration {
        bubbles.remove(at: index)
        paths.remove(at: index)
        spawnTimes.remove(at: index)
        continue
      }
      update(index, age: age)
      index += 1
    }
    if spawn && bubbles.count < maximum && glyphCount > 0 && time - lastSpawn >= minInterval {
      emit(at: time)
    }
  }

  /// Starts a bubble at `time`; draws glyph, end x, first and second control x in the
  /// seed's order.
  private mutating func emit(at time: Double) {
    let glyph = random.nextIndex(below: glyphCount)
    let endX = randomX()
    let control1X = randomX()
    let control2X = randomX()
    let path = BubblePath(
      control1: SIMD2(control1X, 0.2), control2: SIMD2(control2X, 0.6), end: SIMD2(endX, 1))
    bubbles.append(Bubble(id: nextID, x: 0, y: 0, scale: 0.1, alpha: 1, glyphIndex: glyph))
    paths.append(path)
    spawnTimes.append(time)
    nextID += 1
    lastSpawn = time
  }

  /// The seed's `maxWidth · rand − maxLeft`, in units of `maxHeight`.
  private mutating func randomX() -> Float {
    let points = random.nextUnit() * (maxLeft + maxRight) - maxLeft
    return maxHeight > 0 ? points / maxHeight : 0
  }

  /// Sets bubble `index`'s position, scale and opacity for its age in seconds.
  private mutating func update(_ index: Int, age: Double) {
    let eased = TimingCurve.easeOut.value(at: duration > 0 ? age / duration : 1)
    let position = paths[index].pacedPoint(at: Float(eased))
    let grown = min(1, eased * duration / Self.scaleDuration)
    let faded = min(1, max(0, (eased - (1 - Self.fadeFraction)) / Self.fadeFraction))
    bubbles[index].x = position.x
    bubbles[index].y = position.y
    bubbles[index].scale = Float(0.1 + 0.9 * grown)
    bubbles[index].alpha = Float(1 - 0.9 * faded)
  }
}

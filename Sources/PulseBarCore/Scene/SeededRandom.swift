/// SplitMix64: a tiny, fast, seedable generator, so that the same `--seed` gives the
/// same bubbles on every run and every machine. Not for anything secret.
package struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  package init(seed: UInt64) {
    state = seed
  }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform value in 0..<1 with 24 bits of resolution (every one exact in `Float`).
  package mutating func nextUnit() -> Float {
    Float(next() >> 40) * 0x1p-24
  }

  /// A uniform index in 0..<count (`count` > 0).
  package mutating func nextIndex(below count: Int) -> Int {
    Int(next() % UInt64(count))
  }
}

/// A deterministic uniform noise source in −1...1 (a 32-bit linear congruential generator).
struct NoiseSource {
  private var state: UInt32

  init(seed: UInt32) { state = seed }

  mutating func next() -> Float {
    state = state &* 1_664_525 &+ 1_013_904_223
    return Float(Int32(bitPattern: state)) / Float(Int32.max)
  }
}

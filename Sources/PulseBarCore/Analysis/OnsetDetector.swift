import Glibc

/// Finds onsets (peaks) by spectral flux over an adaptive threshold.
///
/// Flux is the summed rise of log-compressed magnitudes from one frame to the
/// next. An onset is a frame whose flux exceeds `threshold` times its running
/// mean (a ~0.5 s exponential average) plus a small floor, so a steady loud
/// passage and digital silence give none, and the same beat at any volume does.
/// A 100 ms refractory period keeps one hit from counting twice.
struct OnsetDetector {
  private let bins: Int
  private let previous: UnsafeMutableBufferPointer<Float>
  private let threshold: Float
  private let meanRate: Float
  private let refractoryFrames: Int
  private var mean: Float = 0
  private var framesSinceOnset = Int.max / 2
  /// The floor under the threshold, in summed log-magnitude units: a steady tone's
  /// frame-to-frame wobble sums to about 1, a drum hit to over 100.
  private static let floor: Float = 5
  /// Log compression: `log1p(compression · magnitude)`.
  private static let compression: Float = 1000

  init(bins: Int, channels: Int, fps: Int, threshold: Float) {
    self.bins = bins
    previous = .allocate(capacity: bins * channels)
    previous.initialize(repeating: 0)
    self.threshold = threshold
    meanRate = 1 - expf(-1 / (0.5 * Float(fps)))
    refractoryFrames = max(1, fps / 10)
  }

  /// Frees the per-bin memory (the owning analyser's deinit).
  func deallocate() { previous.deallocate() }

  /// The flux of one channel's new spectrum against its last one; remembers it.
  func flux(channel: Int, magnitudes: UnsafeBufferPointer<Float>) -> Float {
    let last = previous.baseAddress! + channel * bins
    var sum: Float = 0
    for bin in 0..<min(bins, magnitudes.count) {
      let value = log1pf(Self.compression * magnitudes[bin])
      let rise = value - last[bin]
      if rise > 0 { sum += rise }
      last[bin] = value
    }
    return sum
  }

  /// Takes the frame's flux; true when it is an onset.
  mutating func update(flux: Float) -> Bool {
    let isOnset =
      flux > threshold * mean + Self.floor && framesSinceOnset >= refractoryFrames
    mean += (flux - mean) * meanRate
    framesSinceOnset = isOnset ? 0 : framesSinceOnset + 1
    return isOnset
  }
}

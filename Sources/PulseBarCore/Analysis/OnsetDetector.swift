import Glibc

/// Finds onsets (peaks) by spectral flux over an adaptive threshold.
///
/// Flux is the summed rise of log-compressed magnitudes from one frame to the
/// next. An onset is a frame whose flux exceeds `threshold` times its running
/// mean (a ~0.5 s exponential average) plus a small floor, so a steady loud
/// passage and digital silence give none, and the same beat at any volume does.
/// A 100 ms refractory period keeps one hit from counting twice.
///
/// After a source switch (``reprime()``) no onset fires until the short transform's window
/// holds only the new audio, and the flux of those frames stays out of the running mean: the
/// step the switch makes (a splice, a history started from zeros) is no onset, and a real one
/// right after it is judged against the music, not against the splice.
struct OnsetDetector {
  private let bins: Int
  private let previous: UnsafeMutableBufferPointer<Float>
  private let threshold: Float
  private var meanRate: Float
  private var refractoryFrames: Int
  private var mean: Float = 0
  private var framesSinceOnset = Int.max / 2
  /// Samples per channel the flux's transform spans (the short window).
  private let windowFrames: Int
  /// Samples per channel in one frame of audio, at `sampleRate` a second.
  private var hopFrames: Int
  private let sampleRate: Int
  /// Frames left that cannot fire since the last ``reprime()``.
  private var primingFrames = 0
  /// The floor under the threshold, in summed log2-magnitude units: a steady tone's
  /// frame-to-frame wobble sums to about 1.5, a drum hit to over 150.
  private static let floor: Float = 7
  /// Log compression: `log2(1 + compression · magnitude)`.
  private static let compression: Float = 1000

  init(bins: Int, channels: Int, sampleRate: Int, fps: Int, threshold: Float) {
    self.bins = bins
    windowFrames = 2 * (bins - 1)
    self.sampleRate = sampleRate
    hopFrames = max(1, sampleRate / max(1, fps))
    previous = .allocate(capacity: bins * channels)
    previous.initialize(repeating: 0)
    self.threshold = threshold
    meanRate = 1 - expf(-1 / (0.5 * Float(fps)))
    refractoryFrames = max(1, fps / 10)
  }

  /// Frames now come `fps` times a second: the running mean keeps its 0.5 s and the
  /// refractory period its 100 ms.
  mutating func setFrameRate(_ fps: Int) {
    hopFrames = max(1, sampleRate / max(1, fps))
    meanRate = 1 - expf(-1 / (0.5 * Float(fps)))
    refractoryFrames = max(1, fps / 10)
  }

  /// log2 to about 1e-4, from the float's exponent and a polynomial in its mantissa:
  /// a libm `log1pf` per bin per channel cost more than the FFTs themselves.
  @inline(__always)
  static func fastLog2(_ x: Float) -> Float {
    let bits = x.bitPattern
    let exponent = Float(Int32(bitPattern: (bits >> 23) & 0xff) - 127)
    let m = Float(bitPattern: (bits & 0x7f_ffff) | 0x3f80_0000)
    // ln(m) on [1, 2) by a quartic; scaled to log2.
    let naturalLog =
      -1.741_793_9 + (2.821_202_6 + (-1.469_956_8 + (0.447_179_55 - 0.056_570_851 * m) * m) * m) * m
    return exponent + naturalLog * 1.442_695
  }

  /// Frees the per-bin memory (the owning analyser's deinit).
  func deallocate() { previous.deallocate() }

  /// The flux of one channel's new spectrum against its last one; remembers it.
  func flux(channel: Int, magnitudes: UnsafeBufferPointer<Float>) -> Float {
    let last = previous.baseAddress! + channel * bins
    var sum: Float = 0
    for bin in 0..<min(bins, magnitudes.count) {
      let value = Self.fastLog2(1 + Self.compression * magnitudes[bin])
      let rise = value - last[bin]
      if rise > 0 { sum += rise }
      last[bin] = value
    }
    return sum
  }

  /// Frames a ``reprime()`` holds: every frame whose window still reaches back past the
  /// switch (the switch's frame included) and the one after, whose flux is measured against
  /// the last of them; and at least ``settleSeconds``, since a stream that starts again may
  /// step once more in its first quanta.
  var primeLength: Int {
    let window = (windowFrames + hopFrames - 1) / hopFrames + 1
    return max(window, Int((Self.settleSeconds * Float(sampleRate)) / Float(hopFrames)) + 1)
  }

  /// How long a switched stream may take to settle: on native PipeWire, a monitor stream made
  /// active again after the player's streams delivered stepped a second time 5 to 6 frames
  /// (about 0.1 s) after its first samples (`HandOverBubbleTests`).
  static let settleSeconds: Float = 0.2

  /// The audio changes hands at the next frame: that frame and the next ``primeLength`` − 1
  /// cannot fire. The spectra go on being remembered, so the first frame that can fire
  /// compares new audio with new audio.
  mutating func reprime() { primingFrames = primeLength }

  /// Takes the frame's flux; true when it is an onset.
  mutating func update(flux: Float) -> Bool {
    if primingFrames > 0 {
      primingFrames -= 1
      framesSinceOnset += 1
      return false
    }
    let isOnset =
      flux > threshold * mean + Self.floor && framesSinceOnset >= refractoryFrames
    mean += (flux - mean) * meanRate
    framesSinceOnset = isOnset ? 0 : framesSinceOnset + 1
    return isOnset
  }
}

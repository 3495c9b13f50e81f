import Glibc

/// Turns the analyser's spectra into bar heights in 0...1 for one bar layout:
/// banding, gravity fall-off and integral noise reduction (after cava's
/// `cavacore.c`), then the gain: automatic (``AutomaticGain``) or a fixed sensitivity.
///
/// Banding: a bar's level is the root of the summed power of its bins (its RMS),
/// scaled so a full-scale sine reads 1 wherever it falls, in a band of any width.
/// Summed power rather than the strongest bin, because a Hann-windowed tone spreads
/// over two or three bins, and the sum gives the same level whether it sits on a bin
/// or between two, so equal tones make equal bars (cava's core test: 200 Hz and 2 kHz
/// within 15 %). No spectral tilt for the same reason: summing power over geometric
/// bands already lifts the treble of broadband music (a wide band sums many bins).
///
/// Smoothing runs on levels, before the gain, so a gain cut shows on the very frame
/// it is made: nothing stays pinned at the top while a smoothing memory drains.
///
/// One per distinct layout (bar count and channels); all layouts read the same
/// ``SpectrumAnalyzer``. Heights run left channel low→high, then right.
/// Buffers are allocated once; `process` allocates nothing.
package final class BarProcessor {
  package let layout: BandLayout
  package let channels: Int
  /// Bars drawn in all (`layout.barsPerChannel × channels`).
  package var barCount: Int { layout.barsPerChannel * channels }
  /// The heights of the last processed frame.
  package var heights: UnsafeBufferPointer<Float> { UnsafeBufferPointer(output) }
  /// The gain of the last processed frame (heights per unit of level).
  package var gain: Float { automaticGain?.gain ?? fixedGain }

  private let output: UnsafeMutableBufferPointer<Float>
  private let peak: UnsafeMutableBufferPointer<Float>
  private let fall: UnsafeMutableBufferPointer<Float>
  /// The smoothed level per bar (the integral's state), before the gain.
  private let memory: UnsafeMutableBufferPointer<Float>
  /// Per band: the factor on summed power that makes a full-scale sine read 1 (`levelScale²`).
  private let bandScale: UnsafeMutableBufferPointer<Float>
  private let noiseReduction: Float
  private let fixedGain: Float
  private var automaticGain: AutomaticGain?
  /// 60 / frames per second: cava's per-frame constants are tuned at 60 fps.
  private var frameScale: Float

  /// Summed Hann power of a sine over all bins, with the analyser's scale (a full-scale
  /// sine on a bin centre reads 1 there and 1/2 on either neighbour: 1 + 2·¼ = 1.5).
  /// By Parseval the sum is the same wherever the sine falls, so 1/√1.5 maps it to 1.
  static let levelScale: Float = 1 / Float(1.5).squareRoot()
  /// Heights follow level^γ: bars show loudness more than amplitude, as ears hear it
  /// (Stevens: loudness grows about as amplitude^0.6), so the mid and treble bars of
  /// real music, 15–25 dB under the bass, still move instead of lying at the floor,
  /// while a tone's leakage (−50 dB beside it) stays invisible (under 2 %).
  static let exponent: Float = 0.7
  private let halfExponent = exponent / 2
  /// With autosens off, 100 % sensitivity puts a −12 dBFS sine (level ¼) at full height.
  static let baseGain: Float = 1 / powf(0.25, exponent)

  /// Makes a processor for `totalBars` bars over `channels` channels.
  package init(
    totalBars: Int, channels: Int, configuration: Configuration, sizes: TransformSizes
  ) throws(LayoutError) {
    guard totalBars % channels == 0 else {
      throw LayoutError(message: "bars must be even in stereo (got \(totalBars))")
    }
    layout = try BandLayout(
      barsPerChannel: totalBars / channels, lowCutoff: configuration.lowCutoff,
      highCutoff: configuration.highCutoff, sizes: sizes)
    self.channels = channels
    let count = totalBars
    output = .allocate(capacity: count)
    peak = .allocate(capacity: count)
    fall = .allocate(capacity: count)
    memory = .allocate(capacity: count)
    for buffer in [output, peak, fall, memory] { buffer.initialize(repeating: 0) }
    bandScale = .allocate(capacity: layout.barsPerChannel)
    bandScale.initialize(repeating: Self.levelScale * Self.levelScale)
    noiseReduction = min(max(configuration.noiseReduction, 0), 0.99)
    fixedGain = Self.baseGain * configuration.sensitivity / 100
    frameScale = 60 / Float(configuration.fps)
    if configuration.autosens {
      automaticGain = AutomaticGain(
        fps: configuration.fps,
        noiseFloorLevel: powf(configuration.noiseFloorAmplitude, Self.exponent))
    }
  }

  deinit {
    output.deallocate()
    peak.deallocate()
    fall.deallocate()
    memory.deallocate()
    bandScale.deallocate()
  }

  /// Frames now come `fps` times a second: the fall-off, smoothing and gain keep their speed
  /// per second, and the bars go on from where they are.
  package func setFrameRate(_ fps: Int) {
    frameScale = 60 / Float(fps)
    automaticGain?.setFrameRate(fps)
  }

  /// Bands the analyser's current spectra, smooths them and applies the gain into
  /// `heights`. On `silent` frames (peak below the noise floor) the gain does not grow.
  package func process(_ analyzer: SpectrumAnalyzer, silent: Bool) {
    let bars = layout.barsPerChannel
    // cava's fall-off tuned at 60 fps, scaled to the frame rate.
    let gravity = powf(frameScale, 2.5) * 2 / max(noiseReduction, 0.01)
    let fallStep: Float = 0.028 * frameScale
    let integral = powf(noiseReduction, frameScale)
    var loudest: Float = 0
    for channel in 0..<channels {
      let long = analyzer.spectrum(.long, channel: channel)
      let short = analyzer.spectrum(.short, channel: channel)
      for (bandIndex, band) in layout.bands.enumerated() {
        let spectrum = band.transform == .long ? long : short
        var power: Float = 0
        for bin in band.firstBin...min(band.lastBin, spectrum.count - 1) {
          power += spectrum[bin] * spectrum[bin]
        }
        let index = channel * bars + bandIndex
        // level^γ = (power · scale²)^(γ/2), one powf per bar.
        var value = powf(power * bandScale[bandIndex], halfExponent)
        // Gravity: once a bar drops, it falls from its peak with growing speed.
        if value < memory[index] && noiseReduction > 0.1 {
          value = max(peak[index] * (1 - fall[index] * fall[index] * gravity), value, 0)
          fall[index] += fallStep
        } else {
          peak[index] = value
          fall[index] = 0
        }
        // Integral noise reduction: an exponential average whose steady state is the input.
        value = memory[index] * integral + value * (1 - integral)
        memory[index] = value
        loudest = max(loudest, value)
      }
    }
    automaticGain?.update(loudest: loudest, silent: silent)
    let gain = self.gain
    for index in 0..<output.count {
      output[index] = min(memory[index] * gain, 1)
    }
  }
}

import Glibc

/// Turns the analyser's spectra into bar heights in 0...1 for one bar layout:
/// banding, spectral tilt, gain (autosens or fixed sensitivity), gravity
/// fall-off and integral noise reduction, after cava's `cavacore.c`.
///
/// One per distinct layout (bar count and channels); all layouts read the same
/// ``SpectrumAnalyzer``. Heights run left channel low→high, then right.
/// Buffers are allocated once; `process` allocates nothing.
public final class BarProcessor {
  public let layout: BandLayout
  public let channels: Int
  /// Bars drawn in all (`layout.barsPerChannel × channels`).
  public var barCount: Int { layout.barsPerChannel * channels }
  /// The heights of the last processed frame.
  public var heights: UnsafeBufferPointer<Float> { UnsafeBufferPointer(output) }

  private let output: UnsafeMutableBufferPointer<Float>
  private let peak: UnsafeMutableBufferPointer<Float>
  private let fall: UnsafeMutableBufferPointer<Float>
  private let memory: UnsafeMutableBufferPointer<Float>
  /// Per band: tilt that lifts the treble, as music's spectrum falls about 3 dB per octave.
  private let tilt: UnsafeMutableBufferPointer<Float>
  private let autosens: Bool
  private let noiseReduction: Float
  private var gain: Float
  /// Until the first overshoot autosens rises fast (×1.1 a frame) to fit the music.
  private var gainSettling = true
  private let frameScale: Float
  /// Base gain mapping a typical music band magnitude to about half height at 100 % sensitivity.
  private static let baseGain: Float = 8

  /// Makes a processor for `totalBars` bars over `channels` channels.
  public init(
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
    tilt = .allocate(capacity: layout.barsPerChannel)
    for (index, band) in layout.bands.enumerated() {
      let centre = (band.lowerHz * band.upperHz).squareRoot()
      tilt[index] = powf(max(centre, 20) / 1000, 0.5)
    }
    autosens = configuration.autosens
    noiseReduction = min(max(configuration.noiseReduction, 0), 0.99)
    gain = Self.baseGain * configuration.sensitivity / 100
    frameScale = 60 / Float(configuration.fps)
  }

  deinit {
    output.deallocate()
    peak.deallocate()
    fall.deallocate()
    memory.deallocate()
    tilt.deallocate()
  }

  /// Bands the analyser's current spectra and smooths them into `heights`.
  /// `silent` frames (digital silence) leave the automatic gain alone.
  public func process(_ analyzer: SpectrumAnalyzer, silent: Bool) {
    let bars = layout.barsPerChannel
    var overshoot = false
    // cava's fall-off tuned at 60 fps, scaled to the frame rate.
    let gravity = powf(frameScale, 2.5) * 2 / max(noiseReduction, 0.01)
    let fallStep: Float = 0.028 * frameScale
    let integral = powf(noiseReduction, frameScale)
    for channel in 0..<channels {
      let long = analyzer.spectrum(.long, channel: channel)
      let short = analyzer.spectrum(.short, channel: channel)
      for (bandIndex, band) in layout.bands.enumerated() {
        let spectrum = band.transform == .long ? long : short
        var strongest: Float = 0
        for bin in band.firstBin...min(band.lastBin, spectrum.count - 1) {
          strongest = max(strongest, spectrum[bin])
        }
        let index = channel * bars + bandIndex
        var value = strongest * tilt[bandIndex] * gain
        // Gravity: once a bar drops, it falls from its peak with growing speed.
        if value < output[index] && noiseReduction > 0.1 {
          value = max(peak[index] * (1 - fall[index] * fall[index] * gravity), value, 0)
          fall[index] += fallStep
        } else {
          peak[index] = value
          fall[index] = 0
        }
        // Integral noise reduction: an exponential average whose steady state is the input.
        value = memory[index] * integral + value * (1 - integral)
        memory[index] = value
        if value > 1 {
          overshoot = true
          value = 1
        }
        output[index] = value
      }
    }
    guard autosens, !silent else { return }
    if overshoot {
      gain *= powf(0.98, frameScale)
      gainSettling = false
    } else {
      gain *= powf(gainSettling ? 1.1 : 1.002, frameScale)
    }
  }
}

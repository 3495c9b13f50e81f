internal import CFFTW
import Glibc
import PulseBarSystem

/// FFTW's planner is not thread-safe; every plan is made and destroyed under this lock.
private let fftwPlannerLock = Lock(())

/// The shared per-frame analysis: one long and one short real FFT per channel
/// over the newest audio, their magnitude spectra, frame loudness and onsets.
///
/// One analyser serves every bar layout (``BarProcessor`` bands its spectra);
/// plans and buffers are made once in `init` and nothing allocates per frame.
/// Plans are made with `FFTW_ESTIMATE`: `FFTW_MEASURE` may pick a different
/// algorithm on each run, and then two offline runs of one file would differ
/// in the last bit. Not `Sendable`: the compiler keeps each analyzer on one thread at a time
/// (the engine's).
package final class SpectrumAnalyzer {
  package let sizes: TransformSizes
  package let channels: Int
  /// Newest `sizes.long` samples per channel, oldest first (channel-major).
  private let history: UnsafeMutableBufferPointer<Float>
  private let longWindow: UnsafeMutableBufferPointer<Float>
  private let shortWindow: UnsafeMutableBufferPointer<Float>
  private let longInput: UnsafeMutablePointer<Float>
  private let shortInput: UnsafeMutablePointer<Float>
  private let longOutput: UnsafeMutablePointer<fftwf_complex>
  private let shortOutput: UnsafeMutablePointer<fftwf_complex>
  private let longPlan: fftwf_plan
  private let shortPlan: fftwf_plan
  /// Magnitudes per channel, normalized so a full-scale sine at a bin centre reads 1.
  private let longMagnitudes: UnsafeMutableBufferPointer<Float>
  private let shortMagnitudes: UnsafeMutableBufferPointer<Float>
  /// Bins of the long transform kept (the rest are never banded).
  package let longBinsKept: Int
  private var onsets: OnsetDetector
  /// The largest absolute sample in the audio pushed since the last `analyze()`.
  package private(set) var framePeak: Float = 0
  /// True when the last `analyze()` found an onset.
  package private(set) var onset = false

  /// Frames now come `fps` times a second (see ``FramePipeline/setFrameRate(_:)``).
  package func setFrameRate(_ fps: Int) { onsets.setFrameRate(fps) }

  /// The next frame's audio continues the sound from another stream (see
  /// ``FramePipeline/sourceSwitched(_:)``): the step it makes in the spectrum is no onset.
  package func reprimeOnsets() { onsets.reprime() }

  /// Makes the plans and buffers for `channels` channels at `sampleRate`.
  package init(sampleRate: Int, channels: Int, fps: Int, onsetThreshold: Float = 1.5) {
    sizes = TransformSizes(sampleRate: sampleRate)
    self.channels = channels
    history = .allocate(capacity: sizes.long * channels)
    history.initialize(repeating: 0)
    longWindow = Self.hann(sizes.long)
    shortWindow = Self.hann(sizes.short)
    let longLength = sizes.long
    let shortLength = sizes.short
    let (longIn, longOut, longPlan) = fftwPlannerLock.withLock { _ in
      Self.makePlan(size: longLength)
    }
    let (shortIn, shortOut, shortPlan) = fftwPlannerLock.withLock { _ in
      Self.makePlan(size: shortLength)
    }
    (longInput, longOutput, self.longPlan) = (longIn, longOut, longPlan)
    (shortInput, shortOutput, self.shortPlan) = (shortIn, shortOut, shortPlan)
    longBinsKept = sizes.lastBin(.long)
    longMagnitudes = .allocate(capacity: (longBinsKept + 1) * channels)
    longMagnitudes.initialize(repeating: 0)
    shortMagnitudes = .allocate(capacity: (sizes.short / 2 + 1) * channels)
    shortMagnitudes.initialize(repeating: 0)
    onsets = OnsetDetector(
      bins: sizes.short / 2 + 1, channels: channels, sampleRate: sampleRate, fps: fps,
      threshold: onsetThreshold)
  }

  deinit {
    fftwPlannerLock.withLock { _ in
      fftwf_destroy_plan(longPlan)
      fftwf_destroy_plan(shortPlan)
    }
    fftwf_free(longInput)
    fftwf_free(shortInput)
    fftwf_free(longOutput)
    fftwf_free(shortOutput)
    history.deallocate()
    longWindow.deallocate()
    shortWindow.deallocate()
    longMagnitudes.deallocate()
    shortMagnitudes.deallocate()
    onsets.deallocate()
  }

  /// Allocates FFTW-aligned buffers and an r2c plan over them (call under the planner lock).
  private static func makePlan(size: Int) -> (
    UnsafeMutablePointer<Float>, UnsafeMutablePointer<fftwf_complex>, fftwf_plan
  ) {
    let input = fftwf_alloc_real(size)!
    let output = fftwf_alloc_complex(size / 2 + 1)!
    input.initialize(repeating: 0, count: size)
    let plan = fftwf_plan_dft_r2c_1d(Int32(size), input, output, FFTW_ESTIMATE)!
    return (input, output, plan)
  }

  private static func hann(_ size: Int) -> UnsafeMutableBufferPointer<Float> {
    let window = UnsafeMutableBufferPointer<Float>.allocate(capacity: size)
    for index in 0..<size {
      window[index] = 0.5 * (1 - cosf(2 * Float.pi * Float(index) / Float(size - 1)))
    }
    return window
  }

  // MARK: - Input

  /// The largest sample magnitude analysed: 60 dB over full scale. Samples come from outside
  /// (a float WAV, a PulseAudio or PipeWire float stream any program can play into) and may be
  /// NaN, infinite or near `Float.greatestFiniteMagnitude`; squared in the transform, those
  /// made every bar NaN for good and the text, waybar and raw renderers trapped converting
  /// them to integers. Bounded to this, a full-band frame's summed power stays below 1e11.
  package static let sampleLimit: Float = 1000

  /// A sample as the analysis takes it: NaN is silence, anything else is clamped to
  /// ±``sampleLimit`` (infinities included).
  @inline(__always)
  package static func bounded(_ sample: Float) -> Float {
    sample.isNaN ? 0 : min(max(sample, -sampleLimit), sampleLimit)
  }

  /// Appends interleaved samples (`channels` per frame) to the history, each
  /// ``bounded(_:)``: this is where audio from every source enters the arithmetic.
  package func push(interleaved samples: UnsafeBufferPointer<Float>) {
    let frames = samples.count / channels
    guard frames > 0 else { return }
    let length = sizes.long
    let kept = min(frames, length)
    let skipped = frames - kept
    for channel in 0..<channels {
      let base = history.baseAddress! + channel * length
      if kept < length {
        (base).update(from: base + kept, count: length - kept)
      }
      var source = skipped * channels + channel
      let destination = base + (length - kept)
      var peak = framePeak
      for index in 0..<kept {
        let sample = Self.bounded(samples[source])
        destination[index] = sample
        peak = max(peak, abs(sample))
        source += channels
      }
      framePeak = peak
    }
  }

  /// Forgets all audio (after a stream switch the old history is stale).
  package func reset() {
    history.update(repeating: 0)
    framePeak = 0
  }

  // MARK: - Analysis

  /// Transforms the newest audio of every channel and updates spectra and onset.
  package func analyze() {
    let longScale = 4 / Float(sizes.long)
    let shortScale = 4 / Float(sizes.short)
    var flux: Float = 0
    for channel in 0..<channels {
      let channelHistory = history.baseAddress! + channel * sizes.long
      for index in 0..<sizes.long {
        longInput[index] = channelHistory[index] * longWindow[index]
      }
      let shortStart = channelHistory + (sizes.long - sizes.short)
      for index in 0..<sizes.short {
        shortInput[index] = shortStart[index] * shortWindow[index]
      }
      fftwf_execute(longPlan)
      fftwf_execute(shortPlan)
      let longMagnitudeBase = longMagnitudes.baseAddress! + channel * (longBinsKept + 1)
      Self.magnitudes(
        of: longOutput, count: longBinsKept + 1, scale: longScale, into: longMagnitudeBase)
      let shortCount = sizes.short / 2 + 1
      let shortMagnitudeBase = shortMagnitudes.baseAddress! + channel * shortCount
      Self.magnitudes(
        of: shortOutput, count: shortCount, scale: shortScale, into: shortMagnitudeBase)
      flux += onsets.flux(
        channel: channel,
        magnitudes: UnsafeBufferPointer(start: shortMagnitudeBase, count: shortCount))
    }
    onset = onsets.update(flux: flux / Float(channels))
  }

  /// Marks the start of a new frame's audio for `framePeak`.
  package func startFrame() { framePeak = 0 }

  private static func magnitudes(
    of spectrum: UnsafeMutablePointer<fftwf_complex>, count: Int, scale: Float,
    into output: UnsafeMutablePointer<Float>
  ) {
    for bin in 0..<count {
      let (real, imaginary) = spectrum[bin]
      output[bin] = (real * real + imaginary * imaginary).squareRoot() * scale
    }
  }

  /// Magnitudes of `transform` for `channel`.
  package func spectrum(_ transform: Transform, channel: Int) -> UnsafeBufferPointer<Float> {
    switch transform {
    case .long:
      return UnsafeBufferPointer(
        start: longMagnitudes.baseAddress! + channel * (longBinsKept + 1), count: longBinsKept + 1)
    case .short:
      let count = sizes.short / 2 + 1
      return UnsafeBufferPointer(
        start: shortMagnitudes.baseAddress! + channel * count, count: count)
    }
  }
}

import Glibc
import Testing

@testable import PulseBarCore

@Suite struct BandLayoutTests {
  @Test(arguments: [8, 10, 16, 32, 64], [44100, 48000])
  func everyBarOwnsBinsInOrder(bars: Int, rate: Int) throws {
    let layout = try BandLayout(
      barsPerChannel: bars, lowCutoff: 50, highCutoff: 10000,
      sizes: TransformSizes(sampleRate: rate))
    #expect(layout.bands.count == bars)
    var previousUpper: Float = 0
    for band in layout.bands {
      #expect(band.lastBin >= band.firstBin)
      #expect(band.lowerHz >= previousUpper - 0.01, "bands overlap: \(layout.bands)")
      #expect(band.upperHz > band.lowerHz)
      previousUpper = band.upperHz
    }
    #expect(layout.bands.last!.upperHz > 9000)
  }

  @Test func geometricSpacingFollowsCava() throws {
    // 8 bars 50 Hz … 10 kHz: ideal edges 50·200^(n/8); wide bars' edges sit within a bin of them.
    let sizes = TransformSizes(sampleRate: 44100)
    let layout = try BandLayout(barsPerChannel: 8, lowCutoff: 50, highCutoff: 10000, sizes: sizes)
    for (index, band) in layout.bands.enumerated().dropFirst(3) {
      let ideal = 50 * powf(200, Float(index) / 8)
      #expect(abs(band.lowerHz - ideal) <= sizes.binWidth(band.transform), "bar \(index)")
    }
  }

  @Test func lowBarsUseTheLongTransform() throws {
    let layout = try BandLayout(
      barsPerChannel: 16, lowCutoff: 50, highCutoff: 10000, sizes: TransformSizes(sampleRate: 44100)
    )
    #expect(layout.bands.first!.transform == .long)
    #expect(layout.bands.last!.transform == .short)
  }

  @Test func highCutoffAboveNyquistIsRefused() {
    #expect(throws: LayoutError.self) {
      try BandLayout(
        barsPerChannel: 8, lowCutoff: 50, highCutoff: 30000,
        sizes: TransformSizes(sampleRate: 44100))
    }
  }
}

@Suite struct SpectrumTests {
  /// Bar `index` within one channel whose cutoffs contain `frequency`.
  static func barContaining(_ frequency: Float, _ layout: BandLayout) -> Int? {
    layout.bands.firstIndex { $0.lowerHz <= frequency && frequency < $0.upperHz }
  }

  @Test(arguments: [8, 10, 32], [ChannelMode.mono, .stereo])
  func sinePeaksInItsBar(bars: Int, channels: ChannelMode) throws {
    var configuration = Configuration()
    configuration.bars = bars
    configuration.channels = channels
    let perChannel = bars / channels.count
    let layout = try BandLayout(
      barsPerChannel: perChannel, lowCutoff: 50, highCutoff: 10000,
      sizes: TransformSizes(sampleRate: 44100))
    // The geometric centre of a spread of bars, low to high.
    for bar in stride(from: 0, to: perChannel, by: max(1, perChannel / 5)) {
      let band = layout.bands[bar]
      let frequency = (band.lowerHz * band.upperHz).squareRoot()
      let pipeline = FramePipeline(configuration: configuration, sampleRate: 44100)
      try pipeline.addConsumer(ConsumerKey(format: .json, bars: bars))
      Signals.feed(
        Signals.sine(frequency: frequency, seconds: 0.5, channels: channels.count), to: pipeline)
      let heights = Array(pipeline.displayedBars(count: bars)!)
      for channel in 0..<channels.count {
        let slice = Array(heights[(channel * perChannel)..<((channel + 1) * perChannel)])
        let loudest = slice.indices.max { slice[$0] < slice[$1] }!
        #expect(
          loudest == bar,
          "\(frequency) Hz should peak in bar \(bar) of \(perChannel), got \(loudest): \(slice)")
        #expect(Self.barContaining(frequency, layout) == bar)
      }
    }
  }

  @Test func stereoKeepsChannelsApart() throws {
    var configuration = Configuration()
    configuration.bars = 16
    configuration.channels = .stereo
    let pipeline = FramePipeline(configuration: configuration, sampleRate: 44100)
    try pipeline.addConsumer(ConsumerKey(format: .json, bars: 16))
    Signals.feed(
      Signals.sine(frequency: 200, seconds: 0.5, channels: 2, rightFrequency: 4000), to: pipeline)
    let heights = Array(pipeline.displayedBars(count: 16)!)
    let left = heights[0..<8].indices.max { heights[$0] < heights[$1] }!
    let right = heights[8..<16].indices.max { heights[$0] < heights[$1] }! - 8
    #expect(left < right, "left (200 Hz) peaks at \(left), right (4 kHz) at \(right)")
  }

  @Test func silenceGivesZeros() throws {
    for channels in ChannelMode.allCases {
      var configuration = Configuration()
      configuration.bars = 10
      configuration.channels = channels
      let pipeline = FramePipeline(configuration: configuration, sampleRate: 48000)
      try pipeline.addConsumer(ConsumerKey(format: .raw, bars: 10))
      var seen: [Float] = []
      Signals.feed([Float](repeating: 0, count: 48000 * channels.count), to: pipeline) { pipeline in
        seen.append(contentsOf: pipeline.analyzer.spectrum(.short, channel: 0))
        seen.append(contentsOf: pipeline.displayedBars(count: 10)!.map { $0 * 0 })
      }
      #expect(seen.allSatisfy { $0 == 0 })
      #expect(pipeline.signalPresent == false)
    }
  }

  @Test func autosensFitsQuietAndLoudAlike() throws {
    func settledPeak(amplitude: Float) throws -> Float {
      let pipeline = FramePipeline(configuration: Configuration(), sampleRate: 44100)
      try pipeline.addConsumer(ConsumerKey(format: .json, bars: 8))
      Signals.feed(Signals.sine(frequency: 1000, amplitude: amplitude, seconds: 4), to: pipeline)
      return pipeline.displayedBars(count: 8)!.max()!
    }
    let quiet = try settledPeak(amplitude: 0.01)
    let loud = try settledPeak(amplitude: 0.9)
    #expect(quiet > 0.7 && loud > 0.7, "quiet \(quiet), loud \(loud)")
  }

  @Test func fixedSensitivityScalesWithVolume() throws {
    var configuration = Configuration()
    configuration.autosens = false
    func peak(_ amplitude: Float) throws -> Float {
      let pipeline = FramePipeline(configuration: configuration, sampleRate: 44100)
      try pipeline.addConsumer(ConsumerKey(format: .json, bars: 8))
      Signals.feed(Signals.sine(frequency: 1000, amplitude: amplitude, seconds: 1), to: pipeline)
      return pipeline.displayedBars(count: 8)!.max()!
    }
    let quiet = try peak(0.005)
    let louder = try peak(0.02)
    #expect(louder > 2 * quiet && quiet > 0)
  }

  @Test func barsFallWithGravityAfterTheSoundStops() throws {
    let pipeline = FramePipeline(configuration: Configuration(), sampleRate: 44100)
    try pipeline.addConsumer(ConsumerKey(format: .json, bars: 8))
    Signals.feed(Signals.sine(frequency: 1000, seconds: 1), to: pipeline)
    let loud = pipeline.displayedBars(count: 8)!.max()!
    var heights: [Float] = []
    Signals.feed([Float](repeating: 0, count: 44100), to: pipeline) {
      heights.append($0.liveBars(count: 8)!.max()!)
    }
    #expect(heights[2] > 0 && heights[2] <= loud)
    #expect(heights[20] < loud)
    #expect(zip(heights, heights.dropFirst()).allSatisfy { $0 >= $1 }, "falls monotonically")
    #expect(heights.last! < 0.01)
  }
}

@Suite struct OnsetTests {
  /// Silence with 50 ms bursts of a chord every `period` s.
  static func bursts(count: Int, period: Double, sampleRate: Int = 44100) -> [Float] {
    var samples = [Float](repeating: 0, count: Int(Double(count) * period * Double(sampleRate)))
    for burst in 0..<count {
      let start = Int(Double(burst) * period * Double(sampleRate)) + sampleRate / 10
      for frame in 0..<(sampleRate / 20) where start + frame < samples.count {
        let t = Float(frame) / Float(sampleRate)
        samples[start + frame] = 0.3 * (sinf(2 * .pi * 440 * t) + sinf(2 * .pi * 2500 * t))
      }
    }
    return samples
  }

  @Test func burstsAreOnsets() throws {
    let pipeline = FramePipeline(configuration: Configuration(), sampleRate: 44100)
    var onsets = 0
    Signals.feed(Self.bursts(count: 6, period: 0.5), to: pipeline) {
      if $0.analyzer.onset { onsets += 1 }
    }
    #expect(onsets == 6)
  }

  @Test func steadyToneAndSilenceAreNot() throws {
    let pipeline = FramePipeline(configuration: Configuration(), sampleRate: 44100)
    var onsets = 0
    Signals.feed([Float](repeating: 0, count: 44100), to: pipeline) {
      if $0.analyzer.onset { onsets += 1 }
    }
    #expect(onsets == 0)
    var late = 0
    var frame = 0
    Signals.feed(Signals.sine(frequency: 440, seconds: 3), to: pipeline) { pipeline in
      frame += 1
      if frame > 10 && pipeline.analyzer.onset { late += 1 }
    }
    #expect(late == 0)
  }
}

@Test(arguments: [1.0, 1.5, 2.0, 3.7, 10, 1000, 123_456])
func fastLogMatchesLibm(value: Float) {
  #expect(abs(OnsetDetector.fastLog2(value) - log2f(value)) < 2e-4)
}

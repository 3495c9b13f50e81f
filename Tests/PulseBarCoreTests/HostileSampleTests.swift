import Testing

@testable import PulseBarCore

/// Audio samples no sound card makes, as a float WAV, a PulseAudio float stream or a PipeWire
/// graph can carry them: NaN (any payload), infinities, values near `Float.greatestFiniteMagnitude`,
/// subnormals. Every frame of every format must render (the text, waybar and raw renderers
/// used to trap converting NaN bars to integers), every bar must stay in 0…1, and a tone after
/// them must move the bars again (NaN used to stay in the smoothing memory for good).
@Suite("Hostile samples")
struct HostileSampleTests {
  static let hostileValues: [Float] = [
    .nan, -.nan, .signalingNaN, Float(bitPattern: 0x7FC0_1234), .infinity, -.infinity,
    .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e30, -1e30, 1001, -1001,
    .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, 0, -0.0,
  ]

  /// Every format, in the markups whose renderers draw bars differently, with bars coloured by
  /// height (the gradient reads the bar's level).
  static func pipeline(channels: ChannelMode) throws -> FramePipeline {
    var configuration = Configuration()
    configuration.channels = channels
    configuration.bars = 8
    configuration.markup = .pango
    configuration.barColors = [
      RGBColor(red: 0, green: 0, blue: 255), RGBColor(red: 255, green: 0, blue: 0),
    ]
    configuration.barColoring = .height
    let pipeline = FramePipeline(configuration: configuration, sampleRate: 44100)
    for format in OutputFormat.allCases {
      try pipeline.addConsumer(ConsumerKey(format: format, bars: 8))
    }
    return pipeline
  }

  /// Feeds `samples`, rendering every frame; the bars must stay within 0…1 throughout.
  static func feedAndRender(_ samples: [Float], to pipeline: FramePipeline) {
    Signals.feed(samples, to: pipeline) { pipeline in
      pipeline.renderConsumers(
        info: FrameInfo(time: pipeline.time, source: "hostile", connected: true))
      let bars = pipeline.displayedBars(count: 8)!
      #expect(bars.allSatisfy { $0 >= 0 && $0 <= 1 }, "bars \(Array(bars))")
    }
  }

  @Test(arguments: hostileValues, ChannelMode.allCases)
  func aHostileSampleRendersAndTheBarsRecover(value: Float, channels: ChannelMode) throws {
    let pipeline = try Self.pipeline(channels: channels)
    let tone = Signals.sine(frequency: 1000, seconds: 0.2, channels: channels.count)
    // One sample among music, then a whole second of nothing else.
    var burst = tone
    burst[burst.count / 2] = value
    Self.feedAndRender(burst, to: pipeline)
    Self.feedAndRender([Float](repeating: value, count: 44100 * channels.count), to: pipeline)
    let after = Signals.sine(frequency: 1000, seconds: 2, channels: channels.count)
    Self.feedAndRender(after, to: pipeline)
    // The tone peaks in its own bar again, as in a pipeline that never saw the value (the
    // gain, cut by a huge value, grows back at its own pace: the height is not compared).
    let clean = try Self.pipeline(channels: channels)
    Signals.feed(after, to: clean)
    let bars = Array(pipeline.displayedBars(count: 8)!)
    let expected = Array(clean.displayedBars(count: 8)!)
    #expect(bars.max()! > 0, "the tone no longer moves the bars: \(bars)")
    #expect(Self.loudest(bars) == Self.loudest(expected), "bars \(bars), clean \(expected)")
  }

  static func loudest(_ bars: [Float]) -> Int { bars.indices.max { bars[$0] < bars[$1] }! }

  /// Random bit patterns: every Float value is equally likely to come up, NaN payloads and
  /// infinities included (about 0.4 % of them are NaN).
  @Test func randomBitPatternsRender() throws {
    let pipeline = try Self.pipeline(channels: .stereo)
    var random = SeededRandom(seed: 26)
    let samples = (0..<(44100 * 2 * 2)).map { _ in
      Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
    }
    Self.feedAndRender(samples, to: pipeline)
  }

  @Test func boundedIsTotal() {
    for value in Self.hostileValues {
      let bounded = SpectrumAnalyzer.bounded(value)
      #expect(bounded.isFinite && abs(bounded) <= SpectrumAnalyzer.sampleLimit, "\(value)")
    }
    #expect(SpectrumAnalyzer.bounded(.nan) == 0)
    #expect(SpectrumAnalyzer.bounded(.infinity) == SpectrumAnalyzer.sampleLimit)
    #expect(SpectrumAnalyzer.bounded(-0.25) == -0.25)
  }
}

import Glibc
import PulseBarTestSupport
import Testing

@testable import PulseBarCore

/// The bars at the moments users notice (issue 8), over synthesized audio at exact
/// audio times: silence into music, level jumps, near-silence, tones, start-up.
@Suite struct PictureTests {
  /// Frames of one run: the analyser's bars, the drawn bars and the state, per frame.
  struct Run {
    var live: [[Float]] = []
    var drawn: [[Float]] = []
    var states: [PlaybackState] = []
    var gains: [Float] = []

    /// Figures of the live bars from `start` seconds on.
    func figures(from start: Double = 0) -> PictureFigures {
      PictureFigures(frames: Array(live.dropFirst(Int(start * 60))), fps: 60)
    }
  }

  static func configuration(bars: Int, channels: ChannelMode = .stereo) -> Configuration {
    var configuration = Configuration()
    configuration.bars = bars
    configuration.channels = channels
    return configuration
  }

  /// Feeds stereo `samples` through a fresh pipeline at 60 fps, recording every frame.
  static func run(_ samples: [Float], configuration: Configuration) throws -> Run {
    let pipeline = FramePipeline(
      configuration: configuration, sampleRate: PictureSignals.sampleRate)
    let bars = configuration.bars
    try pipeline.addConsumer(ConsumerKey(format: .json, bars: bars))
    let layout = try #require(pipeline.barProcessor(count: bars))
    var run = Run()
    Signals.feed(samples, to: pipeline) { pipeline in
      run.live.append(Array(pipeline.liveBars(count: bars)!))
      run.drawn.append(Array(pipeline.displayedBars(count: bars)!))
      run.states.append(pipeline.scene.state)
      run.gains.append(layout.gain)
    }
    return run
  }

  // MARK: - Automatic gain and silence

  @Test func ditherThenMusicIsNeverPinned() throws {
    let samples = PictureSignals.ditherThenMusic(silence: 2, music: 10)
    let run = try Self.run(samples, configuration: Self.configuration(bars: 32))
    // The dither is silence: no gain growth, nothing drawn, not playing.
    #expect(
      run.gains[119] == run.gains[0], "gain grew in dither: \(run.gains[0]) → \(run.gains[119])")
    #expect(run.live[0..<120].allSatisfy { $0.max()! < 0.01 })
    // Silence never counts as playing (a stream with no sound yet shows `paused` only after
    // the silence timeout, so a corked new stream does not flash it); sound shows at once.
    #expect(run.states[..<120].allSatisfy { $0 != .playing })
    #expect(run.states[121] == .playing)
    let figures = run.figures(from: 2)
    #expect(figures.longestPinnedSeconds <= 0.3, "pinned \(figures.longestPinnedSeconds) s")
    #expect(figures.pinnedShare <= 0.03, "pinned share \(figures.pinnedShare)")
  }

  @Test func quietNoiseIsPausedAtRestHeights() throws {
    let samples = PictureSignals.quietNoise(seconds: 4)
    let configuration = Self.configuration(bars: 8)
    let run = try Self.run(samples, configuration: configuration)
    #expect(!run.states.contains(.playing), "states \(Set(run.states))")
    #expect(run.states.last == .paused, "after the silence timeout: \(run.states.last!)")
    let rest = (0..<8).map { configuration.restHeights[$0 % 4] }
    #expect(run.drawn.last! == rest)
    #expect(run.live.allSatisfy { $0.max()! <= 0.1 }, "live \(run.live.last!)")
  }

  @Test func signalAtTheNoiseFloorDrawsAtMostATenth() throws {
    let amplitude = powf(10, -70 / 20)
    let samples = Signals.sine(
      frequency: 1000, amplitude: amplitude, seconds: 6, channels: 2)
    let run = try Self.run(samples, configuration: Self.configuration(bars: 16))
    let highest = run.live.map { $0.max()! }.max()!
    #expect(highest <= 0.1 && highest > 0.05, "highest \(highest)")
  }

  @Test func levelStepIsNotPinned() throws {
    let samples = PictureSignals.levelStep(decibels: -30, before: 4, after: 6)
    let run = try Self.run(samples, configuration: Self.configuration(bars: 32))
    let after = PictureFigures(frames: Array(run.live[240...]), fps: 60)
    #expect(after.longestPinnedSeconds <= 0.3, "pinned \(after.longestPinnedSeconds) s")
    #expect(after.pinnedShare <= 0.03, "pinned share \(after.pinnedShare)")
    #expect((0.2...0.5).contains(after.meanHeight), "loud part mean \(after.meanHeight)")
    // The quiet part (about −38 dBFS) showed too, as far as the gain ceiling lets it.
    let quietPart = PictureFigures(frames: Array(run.live[120..<240]), fps: 60)
    #expect(quietPart.meanHeight >= 0.05, "quiet part mean \(quietPart.meanHeight)")
  }

  @Test func quietIntroIntoLoudPartIsNotPinned() throws {
    let samples = PictureSignals.quietIntro(intro: 1, music: 10)
    let run = try Self.run(samples, configuration: Self.configuration(bars: 32))
    let figures = run.figures()
    #expect(figures.longestPinnedSeconds <= 0.3, "pinned \(figures.longestPinnedSeconds) s")
    // A sine peaking 21 dB over the noise floor draws 0.1 · 10^(21·0.7/20) ≈ 0.54; the
    // intro's three softer notes share one bar.
    #expect(run.live[50].max()! >= 0.2, "the intro shows: \(run.live[50].max()!)")
  }

  @Test func wholeRecordingStaysLively() throws {
    let samples = PictureSignals.recording(seconds: 24)
    let run = try Self.run(samples, configuration: Self.configuration(bars: 32))
    let figures = run.figures()
    #expect(
      (0.2...0.5).contains(figures.meanHeight) && figures.pinnedShare <= 0.03
        && figures.floorShare <= 0.1,
      "mean \(figures.meanHeight), pinned \(figures.pinnedShare), floor \(figures.floorShare), motion \(figures.motion)"
    )
  }

  @Test func fixedSensitivityHoldsTheGain() throws {
    var configuration = Self.configuration(bars: 16)
    configuration.autosens = false
    configuration.sensitivity = 50
    let samples = Signals.sine(frequency: 1000, amplitude: 0.25, seconds: 2, channels: 2)
    let run = try Self.run(samples, configuration: configuration)
    #expect(run.gains.allSatisfy { $0 == BarProcessor.baseGain / 2 })
    // A −12 dBFS sine reads ¼; at 50 % of the base gain of 4 that is half height.
    #expect(isClose(Double(run.live.last!.max()!), 0.5, tolerance: 0.03))
  }

  // MARK: - Tone fidelity

  /// cava's core test: 10 bars per channel, 50–10000 Hz, 200 Hz left, 2000 Hz right.
  @Test func cavaToneTest() throws {
    let samples = PictureSignals.tones(left: 200, right: 2000, seconds: 3.5)
    let run = try Self.run(samples, configuration: Self.configuration(bars: 20))
    let heights = run.live.last!
    let left = Array(heights[0..<10])
    let right = Array(heights[10..<20])
    #expect(left[2] >= 0.8 && right[6] >= 0.8, "left \(left), right \(right)")
    for bar in 0..<10 where bar != 2 { #expect(left[bar] <= 0.05, "left bar \(bar): \(left)") }
    for bar in 0..<10 where bar != 6 { #expect(right[bar] <= 0.05, "right bar \(bar): \(right)") }
    #expect(abs(left[2] - right[6]) <= 0.15 * max(left[2], right[6]), "\(left[2]) vs \(right[6])")
  }

  /// A stepped sweep from the top band down to the bottom one, 0.6 s a tone, in one
  /// pipeline: each tone's bar is the loudest and stands high, whatever came before.
  @Test(arguments: [20, 32])
  func sweepLandsEachToneInItsBand(bars: Int) throws {
    let configuration = Self.configuration(bars: bars)
    let layout = try BandLayout(
      barsPerChannel: bars / 2, lowCutoff: 50, highCutoff: 10000,
      sizes: TransformSizes(sampleRate: PictureSignals.sampleRate))
    var samples: [Float] = []
    for band in layout.bands.reversed() {
      let centre = (band.lowerHz * band.upperHz).squareRoot()
      samples += Signals.sine(frequency: centre, amplitude: 0.3, seconds: 0.6, channels: 2)
    }
    let run = try Self.run(samples, configuration: configuration)
    let framesPerTone = Double(run.live.count) / Double(layout.bands.count)
    for (step, bandIndex) in layout.bands.indices.reversed().enumerated() {
      let frame = Int(Double(step + 1) * framesPerTone) - 1
      let left = Array(run.live[frame][0..<(bars / 2)])
      let loudest = left.indices.max { left[$0] < left[$1] }!
      #expect(loudest == bandIndex, "tone of band \(bandIndex) peaks in \(loudest): \(left)")
      #expect(left[bandIndex] >= 0.6, "band \(bandIndex) stands at \(left[bandIndex])")
    }
  }

  // MARK: - Transitions

  @Test func startUpFrameIsTheStoppedFrame() throws {
    let info = FrameInfo(time: 0, source: "test", connected: true)
    let fresh = FramePipeline(configuration: Self.configuration(bars: 8), sampleRate: 44100)
    let freshIndex = try fresh.addConsumer(ConsumerKey(format: .waybar, bars: 8))
    fresh.renderConsumers(info: info)
    let startUp = String(decoding: try #require(fresh.currentLine(freshIndex)).bytes, as: UTF8.self)

    let played = FramePipeline(configuration: Self.configuration(bars: 8), sampleRate: 44100)
    let playedIndex = try played.addConsumer(ConsumerKey(format: .waybar, bars: 8))
    Signals.feed(PictureSignals.music(seconds: 3), to: played)
    #expect(played.scene.state == .playing)
    for _ in 0..<60 { played.advanceWithoutAudio(by: 0.1, activity: .none) }
    played.renderConsumers(info: info)
    let stopped = String(
      decoding: try #require(played.currentLine(playedIndex)).bytes, as: UTF8.self)
    #expect(stopped.contains("\"percentage\":66"), "\(stopped)")
    #expect(startUp == stopped)
  }
}

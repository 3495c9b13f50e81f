import Testing

@testable import PulseBarCore

/// The pipeline analyses at the rate its fastest consumer reads, not always at `general.fps`:
/// a Waybar module asking 30 lines a second costs 30 analyses a second.
@Suite struct ConsumerRateTests {
  @Test(
    arguments: [
      ([], 60), ([nil], 60), ([30], 30), ([30, 20], 30), ([30, nil], 60), ([90], 60), ([1], 1),
    ] as [([Int?], Int)])
  func theFastestConsumerSetsTheRate(rates: [Int?], expected: Int) {
    let keys = rates.map { ConsumerKey(format: .waybar, bars: 8, fps: $0) }
    #expect(ConsumerKey.frameRate(for: keys, maximum: 60) == expected)
  }

  /// At 30 frames a second each frame is 1/30 s of audio (json `time` stays seconds of audio),
  /// a 30-line consumer renders every frame, and a tone still lands in its bar.
  @Test func aThirtyFrameConsumerAloneHalvesTheAnalysis() throws {
    let pipeline = FramePipeline(configuration: Configuration(), sampleRate: 48000)
    let index = try pipeline.addConsumer(ConsumerKey(format: .json, bars: 8, fps: 30))
    #expect(pipeline.wantedFrameRate == 30)
    pipeline.setFrameRate(pipeline.wantedFrameRate)
    #expect(pipeline.frameRate == 30 && pipeline.hopFrames == 1600)
    var frames = 0
    var lines = 0
    let info = FrameInfo(time: 0, source: "s", connected: true)
    Signals.feed(Signals.sine(frequency: 440, seconds: 2, sampleRate: 48000), to: pipeline) {
      frames += 1
      $0.renderConsumers(info: info)
      if $0.changedLine(index) != nil { lines += 1 }
    }
    #expect(frames == 60)
    #expect(isClose(pipeline.time, 2))
    #expect(lines >= 55, "\(lines) lines of 60 frames")
    let bars = try #require(pipeline.liveBars(count: 8))
    let loudest = bars.indices.max { bars[$0] < bars[$1] }!
    #expect(bars[loudest] > 0.8, "\(Array(bars))")
  }

  /// A 60-line consumer arriving (and leaving) changes the rate on the fly; the 30-line one
  /// keeps rendering every 1/30 s of audio across both changes: no gap, no burst.
  @Test func aSlowerConsumerKeepsItsCadenceAcrossRateChanges() throws {
    let pipeline = FramePipeline(configuration: Configuration(), sampleRate: 48000)
    let slow = ConsumerKey(format: .json, bars: 8, fps: 30)
    try pipeline.addConsumer(slow)
    pipeline.setFrameRate(pipeline.wantedFrameRate)
    var renders: [Double] = []
    let info = FrameInfo(time: 0, source: "s", connected: true)
    // Noise: the bars change every frame, so every frame the slow consumer renders is a line.
    var random = SeededRandom(seed: 7)
    func play(seconds: Double) {
      let frames = Int(seconds * 48000)
      let noise = (0..<frames).map { _ in random.nextUnit() - 0.5 }
      Signals.feed(noise, to: pipeline) {
        $0.renderConsumers(info: info)
        if $0.changedLine($0.consumerIndex(of: slow)!) != nil { renders.append($0.time) }
      }
    }
    play(seconds: 1)
    try pipeline.addConsumer(ConsumerKey(format: .raw, bars: 8))
    pipeline.setFrameRate(pipeline.wantedFrameRate)
    #expect(pipeline.frameRate == 60 && pipeline.hopFrames == 800)
    play(seconds: 1)
    pipeline.retainConsumers([slow])
    pipeline.setFrameRate(pipeline.wantedFrameRate)
    #expect(pipeline.frameRate == 30 && pipeline.hopFrames == 1600)
    play(seconds: 1)
    let gaps = zip(renders.dropFirst(), renders).map { $0 - $1 }
    #expect(renders.count >= 88 && renders.count <= 90, "\(renders.count) lines in 3 s")
    let odd = gaps.filter { abs($0 - 1.0 / 30) > 1e-6 }
    #expect(odd.isEmpty, "gaps other than 1/30 s: \(odd)")
  }
}

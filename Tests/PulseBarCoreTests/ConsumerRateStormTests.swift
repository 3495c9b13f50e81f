import Testing

@testable import PulseBarCore

/// A client's rate is a cap whatever happens: random storms of reloads (the same config and
/// alternating ones), player and lyric changes rendered again at the same frame time, and
/// frames, for consumers at the daemon's rate and below it. Each one's lines in any second of
/// audio stay within its rate + 1, and json's `seq` increases across every reload.
@Suite struct ConsumerRateStormTests {
  static let keys = [
    ConsumerKey(format: .json, bars: 8), ConsumerKey(format: .raw, bars: 8),
    ConsumerKey(format: .json, bars: 8, fps: 10), ConsumerKey(format: .text, bars: 8, fps: 5),
  ]

  static func configuration(_ variant: Int) -> Configuration {
    var configuration = Configuration()
    configuration.bars = 8
    configuration.fps = 30
    configuration.onsetThreshold = variant == 0 ? 1.5 : 2.5
    return configuration
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
  func linesPerSecondStayWithinTheRate(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    var pipeline = FramePipeline(configuration: Self.configuration(0), sampleRate: 48000)
    for key in Self.keys { try pipeline.addConsumer(key) }
    let noise = (0..<48000).map { _ in Float.random(in: -0.5...0.5, using: &random) }
    var lines: [ConsumerKey: [Double]] = [:]
    var lastSeq: UInt64 = 0
    var offset = 0
    func render() {
      pipeline.renderConsumers(info: FrameInfo(time: pipeline.time, source: "s", connected: true))
      for key in Self.keys {
        guard let line = pipeline.changedLine(pipeline.consumerIndex(of: key)!) else { continue }
        lines[key, default: []].append(pipeline.time)
        guard key == Self.keys[0] else { continue }
        let text = String(decoding: line.bytes, as: UTF8.self)
        let seq = UInt64(text.dropFirst(7).prefix { $0.isNumber })!
        #expect(seq > lastSeq, "seq \(seq) after \(lastSeq) (seed \(seed))")
        lastSeq = seq
      }
    }
    for frame in 0..<(30 * 20) {
      let hop = pipeline.hopFrames
      if offset + hop > noise.count { offset = 0 }
      noise.withUnsafeBufferPointer {
        pipeline.advance(
          audio: UnsafeBufferPointer(rebasing: $0[offset..<(offset + hop)]), activity: .running)
      }
      offset += hop
      render()
      // Between two frames: up to 5 events, each rendering again at once, as the engine does.
      for _ in 0..<Int.random(in: 0...5, using: &random) {
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
          pipeline.nowPlaying = NowPlaying(
            player: "p\(Int.random(in: 0..<200, using: &random))", status: .playing,
            title: "t\(frame)")
        case 1:
          let previous = pipeline
          pipeline = FramePipeline(
            configuration: Self.configuration(Int.random(in: 0..<2, using: &random)),
            sampleRate: 48000, continuing: previous)
          for key in Self.keys { try pipeline.addConsumer(key) }
        default:
          break
        }
        render()
      }
    }
    for key in Self.keys {
      let rate = Double(key.fps ?? 30)
      let times = lines[key, default: []]
      var worst = 0
      var start = 0
      for (index, time) in times.enumerated() {
        while times[start] <= time - 1 { start += 1 }
        worst = max(worst, index - start + 1)
      }
      #expect(Double(worst) <= rate + 1, "\(key): \(worst) lines in a second (seed \(seed))")
    }
  }
}

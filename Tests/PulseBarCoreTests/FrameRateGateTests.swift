import Testing

@testable import PulseBarCore

/// A consumer's own frame rate (`fps=` on the socket) over the pipeline's frames.
@Suite struct FrameRateGateTests {
  /// Renders admitted out of `seconds` of pipeline frames at `pipelineFPS`.
  static func admitted(fps: Int?, pipelineFPS: Int, seconds: Double) -> Int {
    var gate = FrameRateGate(fps: fps, pipelineFPS: pipelineFPS)
    let frames = Int(seconds * Double(pipelineFPS))
    var count = 0
    for frame in 1...frames where gate.admit(at: Double(frame) / Double(pipelineFPS)) {
      count += 1
    }
    return count
  }

  @Test(arguments: [(30, 60, 60), (25, 60, 50), (1, 60, 2), (20, 30, 40), (59, 60, 118)])
  func rendersAtMostItsRate(fps: Int, pipelineFPS: Int, expected: Int) {
    #expect(Self.admitted(fps: fps, pipelineFPS: pipelineFPS, seconds: 2) <= expected + 1)
    #expect(Self.admitted(fps: fps, pipelineFPS: pipelineFPS, seconds: 2) >= expected - 1)
  }

  @Test func noRateIsEveryFrame() {
    #expect(Self.admitted(fps: nil, pipelineFPS: 60, seconds: 2) == 120)
  }

  /// A skipped frame is owed (the engine keeps ticking) until the next admitted one; after a
  /// pause in frames the first one is admitted at once.
  @Test func skippedFramesAreOwedAndAGapRestartsTheCadence() {
    var gate = FrameRateGate(fps: 30, pipelineFPS: 60)
    var admitted = gate.admit(at: 1 / 60)
    #expect(admitted && !gate.owesFrame)
    admitted = gate.admit(at: 2 / 60)
    #expect(!admitted && gate.owesFrame)
    admitted = gate.admit(at: 3 / 60)
    #expect(admitted && !gate.owesFrame)
    admitted = gate.admit(at: 5)
    #expect(admitted, "the first frame after a gap")
    admitted = gate.admit(at: 5 + 1 / 60)
    #expect(!admitted)
  }

  /// The pipeline keeps animating while a slower consumer owes a frame, so its last line is
  /// never a stale one.
  @Test func pipelineAnimatesWhileAConsumerOwesAFrame() throws {
    let pipeline = FramePipeline(configuration: Configuration(), sampleRate: 44100)
    try pipeline.addConsumer(ConsumerKey(format: .text, bars: 8, fps: 30))
    let info = FrameInfo(time: 0, source: "s", connected: true)
    pipeline.advanceWithoutAudio(by: 1 / 60, activity: .none)
    pipeline.renderConsumers(info: info)
    #expect(!pipeline.isAnimating)
    pipeline.advanceWithoutAudio(by: 1 / 60, activity: .none)
    pipeline.renderConsumers(info: info)
    #expect(pipeline.isAnimating, "a skipped frame is owed")
    pipeline.advanceWithoutAudio(by: 1 / 60, activity: .none)
    pipeline.renderConsumers(info: info)
    #expect(!pipeline.isAnimating)
  }
}

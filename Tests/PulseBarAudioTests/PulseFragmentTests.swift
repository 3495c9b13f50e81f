import Glibc
import PulseBarTestSupport
import Testing

@testable import PulseBarAudio

/// Audio reaches the engine in fragments of about one frame, at the frame rate.
@Suite("PulseSource fragments", .serialized)
struct PulseFragmentTests {
  /// The sizes of the successive arrivals in the buffer over `seconds` (polled every 1 ms).
  func arrivals(_ fixture: PulseCaptureFixture, seconds: Double) -> [Int] {
    var arrivals: [Int] = []
    var chunk = [Float](repeating: 0, count: 44100 * 2)
    let end = ChildProcess.now() + seconds
    while ChildProcess.now() < end {
      let count = chunk.withUnsafeMutableBufferPointer { fixture.buffer.read(into: $0) }
      if count > 0 { arrivals.append(count) }
      usleep(1000)
    }
    return arrivals
  }

  @Test(
    "audio arrives about one frame's worth at a time, at the frame rate",
    arguments: AudioServerKind.allCases)
  func oneFrameAtATime(_ kind: AudioServerKind) throws {
    let fixture = try PulseCaptureFixture(kind)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    let player = try fixture.server.play(tone: 1000, seconds: 6)
    defer { player.send(SIGKILL) }
    #expect(fixture.waitForSamples())
    usleep(300_000)
    // The first read takes what queued meanwhile.
    let sizes = arrivals(fixture, seconds: 2).dropFirst()
    let hop = 735 * 2
    #expect(sizes.count >= 100, "\(sizes.count) arrivals in 2 s")
    let large = sizes.filter { $0 > hop * 5 / 2 }
    #expect(large.count <= 2, "arrivals over 2.5 frames: \(large)")
  }
}

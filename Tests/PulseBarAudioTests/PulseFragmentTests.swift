import Glibc
import PulseBarTestSupport
import Testing

@testable import PulseBarAudio

/// Audio reaches the engine in fragments of 2048 frames, about 21 a second (PipeWire: of one
/// quantum, so the desktop's audio never wakes more often for us); the engine spreads the
/// frames a fragment holds (FramePacer).
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
    "audio arrives one fragment at a time, as often as the fragment size says",
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
    // PulseAudio: 2048 frames (21.5 a second at 44.1 kHz), never one per frame (60 a second:
    // the server's share doubles); PipeWire: its 1024-frame quantum at 48 kHz, 941 samples
    // at our 44.1 kHz (47 a second), so the desktop keeps its period.
    let fragment = (kind == .pipewire ? 941 : 2048) * 2
    let expected = kind == .pipewire ? 90 : 40
    #expect(sizes.count >= expected, "\(sizes.count) arrivals in 2 s")
    #expect(sizes.count <= (kind == .pipewire ? 100 : 50), "\(sizes.count) arrivals in 2 s")
    let large = sizes.filter { $0 > fragment * 5 / 2 }
    #expect(large.count <= 2, "arrivals over 2.5 fragments: \(large)")
  }

  @Test("on PipeWire the record stream never asks for a latency under the default quantum")
  func keepsPipeWireQuantum() throws {
    let fixture = try PulseCaptureFixture(.pipewire)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    let player = try fixture.server.play(tone: 1000, seconds: 3)
    defer { player.send(SIGKILL) }
    #expect(fixture.waitForSamples())
    // pipewire-pulse turns our fragment into node.latency; the graph (48 kHz) runs at the
    // smallest one any node asks for, rounded down to a power of two. One 60 fps frame
    // (735/44100, 800 graph frames) took a desktop's 1024 quantum down to 512.
    let properties = try fixture.server.pactl(["list", "source-outputs"])
    let latency = try #require(properties.first { $0.contains("node.latency = ") })
    let fraction = latency.split(separator: "\"")[1].split(separator: "/").compactMap { Int($0) }
    try #require(fraction.count == 2)
    let graphFrames = Double(fraction[0]) * 48000 / Double(fraction[1])
    #expect(graphFrames >= 1024, "\(latency): \(graphFrames) frames at 48 kHz")
  }
}

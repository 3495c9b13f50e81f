import Glibc
import PulseBarCore
import PulseBarTestSupport
import Testing

@testable import PulseBarAudio

/// ``PipeWireSource`` (native libpipewire capture) against a private PipeWire session, in
/// process. Skipped, saying why, where PipeWire is not installed.
@Suite("PipeWireSource against a private PipeWire session", .serialized)
struct PipeWireSourceTests {
  @Test("a tone played into the default sink arrives with its frequency")
  func toneArrives() throws {
    let fixture = try PulseCaptureFixture(.pipewire, native: true)
    #expect(fixture.waitRecording("pb_sink_a.monitor"), "status \(fixture.buffer.status)")
    let player = try fixture.server.play(tone: 1000, seconds: 3)
    let started = fixture.wait(2) { $0.activity == .running }
    #expect(started != nil, "activity \(fixture.buffer.status.activity)")
    let samples = fixture.collectPlaying(for: 0.5)
    #expect(samples.count > 44100 / 2, "got \(samples.count) samples in 0.5 s")
    #expect(rms(samples) > 0.05, "rms \(rms(samples))")
    let atTone = power(at: 1000, in: samples)
    let elsewhere = power(at: 3000, in: samples)
    #expect(atTone > 100 * elsewhere, "1 kHz \(atTone), 3 kHz \(elsewhere)")
    player.send(SIGKILL)
  }
}

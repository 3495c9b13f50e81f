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
    try fixture.expectToneWithItsFrequency()
  }

  @Test("a player that plays, pauses and ends: running, corked, none; no samples unless running")
  func activityFollowsThePlayer() throws {
    let fixture = try PulseCaptureFixture(.pipewire, native: true)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    usleep(300_000)
    #expect(fixture.buffer.status.activity == .none)
    #expect(fixture.collect(for: 0.5).isEmpty)
    try fixture.expectCorkCycle()
    #expect(fixture.waitDebugLine("PipeWire: capture stream inactive (no stream plays)"))
  }

  @Test(
    "a default-sink switch is followed, made with pactl or with wpctl",
    arguments: ["pactl", "wpctl"])
  func followsDefaultSink(_ tool: String) throws {
    let fixture = try PulseCaptureFixture(.pipewire, native: true)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    let generation = fixture.buffer.status.generation
    if tool == "pactl" {
      try fixture.server.setDefaultSink("pb_sink_b")
    } else {
      try fixture.server.setDefaultSinkNatively("pb_sink_b")
    }
    // WirePlumber makes the switch; allow for a loaded machine.
    #expect(fixture.waitRecording("pb_sink_b.monitor"), "\(fixture.buffer.status)")
    #expect(fixture.buffer.status.generation != generation)
    // WirePlumber moved the stream too: a tone on the old sink is not ours; one on the new is.
    try fixture.expectIgnoresTone(on: "pb_sink_a")
    try fixture.expectHearsTone(on: "pb_sink_b")
  }

  @Test("recording does not lower the graph's period below the session's default quantum")
  func keepsTheQuantum() throws {
    let fixture = try PulseCaptureFixture(.pipewire, native: true)
    let session = try #require(fixture.server as? PrivatePipeWireSession)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    let player = try fixture.server.play(tone: 1000, seconds: 6)
    #expect(fixture.wait(PulseCaptureFixture.serverReaction) { $0.activity == .running } != nil)
    #expect(fixture.waitForSamples())
    let standard = try #require(try session.defaultQuantum())
    let quantum = try session.quantum(of: "pb_sink_a")
    // pipewire-pulse clamps paplay's long latency to the maximum quantum (2048); a record
    // stream of one 60 fps frame through libpulse took it down to 512.
    #expect((quantum ?? 0) >= standard, "quantum \(quantum ?? -1), default \(standard)")
    player.send(SIGKILL)
  }

  @Test("idle, the inactive stream lets WirePlumber suspend the sink; a player wakes it")
  func idleLetsTheSinkSuspend() throws {
    let fixture = try PulseCaptureFixture(.pipewire, native: true, suspendOnIdle: true)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    let player = try fixture.server.play(tone: 440, seconds: 1)
    #expect(fixture.wait(PulseCaptureFixture.serverReaction) { $0.activity == .running } != nil)
    _ = try player.waitForExit(timeout: 5)
    let state = try fixture.server.waitForSinkState("pb_sink_a", "SUSPENDED", timeout: 5)
    #expect(state == "SUSPENDED", "pb_sink_a is \(state) while nothing plays")
    try fixture.expectHearsTone(on: nil)
  }

  @Test("the session killed and restarted: disconnected, one log line each way, then recording")
  func survivesSessionRestart() throws {
    let fixture = try PulseCaptureFixture(.pipewire, native: true)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    fixture.server.kill()
    #expect(
      fixture.wait(PulseCaptureFixture.serverReaction) { !$0.connected && $0.activity == .none }
        != nil)
    usleep(1_000_000)  // several retries: 100, 200, 400 ms…
    try fixture.server.start()
    #expect(fixture.waitRecording("pb_sink_a.monitor", timeout: 5), "\(fixture.buffer.status)")
    let log = fixture.logLines
    #expect(log.filter { $0.contains("retrying") }.count == 1, "\(log)")
    #expect(log.filter { $0 == "PipeWire: connected again" }.count == 1, "\(log)")
    try fixture.expectHearsTone(on: nil)
  }

  @Test("started before the session exists, it connects once the session appears")
  func startsBeforeSession() throws {
    let fixture = try PulseCaptureFixture(.pipewire, startServer: false, native: true)
    usleep(500_000)
    #expect(!fixture.buffer.status.connected)
    try fixture.server.start()
    #expect(fixture.waitRecording("pb_sink_a.monitor", timeout: 5))
    try fixture.expectHearsTone(on: nil)
  }

  @Test("the default sink destroyed: the monitor of the new default is recorded")
  func defaultSinkRemoved() throws {
    let fixture = try PulseCaptureFixture(.pipewire, native: true)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    try fixture.server.removeSink("pb_sink_a")
    #expect(fixture.waitRecording("pb_sink_b.monitor"), "\(fixture.buffer.status)")
    try fixture.expectHearsTone(on: "pb_sink_b")
  }

  @Test("debug lines (-v) name the connection, the sink followed and the stream's activation")
  func debugLines() throws {
    let fixture = try PulseCaptureFixture(.pipewire, native: true)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    try fixture.expectHearsTone(on: nil)
    #expect(fixture.waitDebugLine("PipeWire: capture stream inactive (no stream plays)"))
    let lines = fixture.debugLines
    #expect(lines.first == "PipeWire: connected to the server", "\(lines)")
    #expect(lines.contains { $0.hasPrefix("PipeWire: recording pb_sink_a.monitor") }, "\(lines)")
    // On a very slow machine the first stream can fail ("no node available") and be made
    // again while the tone already plays: that one starts active, with no activation line.
    let remade = lines.contains { $0.hasPrefix("PipeWire: capture stream failed") }
    #expect(
      remade || lines.contains("PipeWire: capture stream active (a stream plays)"), "\(lines)")
    #expect(lines.allSatisfy { $0.hasPrefix("PipeWire: ") }, "\(lines)")
  }

  @Test("auto's rule: PipeWire counts when its core answers with audio sinks, not without")
  func probe() throws {
    try AudioServerKind.pipewire.skipUnlessRunnable()
    let session = try PrivatePipeWireSession()
    let remote = session.directory + "/pipewire-0"
    let answer = PipeWireProbe.detect(remote: remote)
    #expect(answer.pipeWireServesAudio, "\(answer.reason)")
    #expect(answer.reason.hasSuffix("answers with 2 audio sink(s)"), "\(answer.reason)")
    #expect(answer.graphRate == 48000, "the core's default.clock.rate")
    // What a PulseAudio desktop that runs PipeWire only for screen sharing looks like: no
    // sinks, and no pipewire-pulse (which would add its "Dummy Output" for want of one).
    for sink in session.sinks { try session.removeSink(sink) }
    kill(session.serverPid, SIGKILL)
    var withoutSinks = PipeWireProbe.detect(remote: remote)
    let end = ChildProcess.now() + 5
    while withoutSinks.pipeWireServesAudio && ChildProcess.now() < end {
      usleep(100_000)
      withoutSinks = PipeWireProbe.detect(remote: remote)
    }
    #expect(!withoutSinks.pipeWireServesAudio)
    #expect(withoutSinks.reason.contains("has no audio sinks"), "\(withoutSinks.reason)")
    session.kill()
    let gone = PipeWireProbe.detect(remote: remote)
    #expect(!gone.pipeWireServesAudio)
    #expect(gone.reason == "no PipeWire core answers on \(remote)", "\(gone.reason)")
    session.stop()
  }

  @Test("stop disconnects and is idempotent")
  func stopIsIdempotent() throws {
    let fixture = try PulseCaptureFixture(.pipewire, native: true)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    fixture.stopSource()
    fixture.stopSource()
    #expect(!fixture.buffer.status.connected)
  }
}

import Glibc
import PulseBarCore
import PulseBarTestSupport
import Testing

@testable import PulseBarAudio

/// ``PulseSource`` against a real private PulseAudio server, in process.
@Suite("PulseSource against a private server", .serialized)
struct PulseSourceTests {
  @Test(
    "a tone played into the default sink arrives with its frequency",
    arguments: AudioServerKind.allCases)
  func toneArrives(_ kind: AudioServerKind) throws {
    let fixture = try PulseCaptureFixture(kind)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    try fixture.expectToneWithItsFrequency()
  }

  @Test(
    "idle: nothing plays, the stream is corked and no samples arrive",
    arguments: AudioServerKind.allCases)
  func idleIsCorked(_ kind: AudioServerKind) throws {
    let fixture = try PulseCaptureFixture(kind)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    usleep(300_000)
    #expect(fixture.buffer.status.activity == .none)
    #expect(fixture.collect(for: 1).isEmpty)
    // It can fail: a player makes samples flow, and its end corks the stream again.
    let player = try fixture.server.play(tone: 440, seconds: 10)
    #expect(fixture.wait(PulseCaptureFixture.serverReaction) { $0.activity == .running } != nil)
    #expect(!fixture.collectPlaying(for: 0.3).isEmpty)
    player.send(SIGKILL)
    _ = try player.waitForExit(timeout: 5)
    #expect(fixture.wait(PulseCaptureFixture.serverReaction) { $0.activity == .none } != nil)
    usleep(200_000)
    let after = fixture.collect(for: 1)
    #expect(after.isEmpty, "\(after.count) samples while idle")
  }

  @Test(
    "a player that pauses (corks) makes the activity corked, and resuming runs again",
    arguments: AudioServerKind.allCases)
  func pausedPlayerIsCorked(_ kind: AudioServerKind) throws {
    let fixture = try PulseCaptureFixture(kind)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    try fixture.expectCorkCycle()
  }

  @Test("a default-sink switch is followed", arguments: AudioServerKind.allCases)
  func followsDefaultSink(_ kind: AudioServerKind) throws {
    let fixture = try PulseCaptureFixture(kind)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    let generation = fixture.buffer.status.generation
    try fixture.server.setDefaultSink("pb_sink_b")
    let took = fixture.wait(PulseCaptureFixture.serverReaction) {
      $0.sourceName == "pb_sink_b.monitor"
    }
    #expect(
      took != nil, "still on \(fixture.buffer.status.sourceName): \(fixture.debugLines)")
    #expect(fixture.buffer.status.generation != generation)
    // A tone on the old sink is not ours; one on the new sink is.
    try fixture.expectIgnoresTone(on: "pb_sink_a")
    try fixture.expectHearsTone(on: "pb_sink_b")
  }

  @Test("a default-sink switch made with wpctl (WirePlumber's own tool) is followed")
  func followsWpctlDefault() throws {
    let fixture = try PulseCaptureFixture(.pipewire)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    try fixture.server.setDefaultSinkNatively("pb_sink_b")
    let took = fixture.wait(PulseCaptureFixture.serverReaction) {
      $0.sourceName == "pb_sink_b.monitor"
    }
    #expect(took != nil, "still on \(fixture.buffer.status.sourceName)")
    try fixture.expectIgnoresTone(on: "pb_sink_a")
    try fixture.expectHearsTone(on: "pb_sink_b")
  }

  @Test(
    "debug lines (-v) name the source recorded, sink switches, stream states and corking",
    arguments: AudioServerKind.allCases)
  func debugLinesFollowTheStream(_ kind: AudioServerKind) throws {
    let fixture = try PulseCaptureFixture(kind)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    #expect(fixture.waitDebugLine("PulseAudio: record stream ready on pb_sink_a.monitor"))
    try fixture.server.setDefaultSink("pb_sink_b")
    #expect(fixture.waitDebugLine("PulseAudio: recording pb_sink_b.monitor (the monitor of sink #"))
    try fixture.expectHearsTone(on: "pb_sink_b")
    #expect(fixture.waitDebugLine("PulseAudio: uncorked (a stream plays)"))
    #expect(fixture.waitDebugLine("PulseAudio: corked (no stream plays)"))
    let lines = fixture.debugLines
    #expect(lines.first == "PulseAudio: connected to the server", "\(lines)")
    #expect(lines.allSatisfy { $0.hasPrefix("PulseAudio: ") }, "\(lines)")
  }

  @Test(
    "the server killed and restarted: disconnected, then connected and samples resume",
    arguments: AudioServerKind.allCases)
  func survivesServerRestart(_ kind: AudioServerKind) throws {
    let fixture = try PulseCaptureFixture(kind)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    fixture.server.kill()
    #expect(
      fixture.wait(PulseCaptureFixture.serverReaction) { !$0.connected && $0.activity == .none }
        != nil)
    usleep(1_500_000)
    try fixture.server.start()
    let back = fixture.wait(PulseCaptureFixture.reconnection) {
      $0.connected && $0.sourceName == "pb_sink_a.monitor"
    }
    #expect(back != nil, "status \(fixture.buffer.status)")
    try fixture.expectHearsTone(on: nil)
  }

  @Test(
    "after a restart it records the default the server restored, which differs by server",
    arguments: AudioServerKind.allCases)
  func restartRestoresDefault(_ kind: AudioServerKind) throws {
    let fixture = try PulseCaptureFixture(kind)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    try fixture.server.setDefaultSink("pb_sink_b")
    // The switch itself (followsDefaultSink times it); here only the restart matters, so the
    // wait allows for a loaded CI machine.
    #expect(fixture.waitRecording("pb_sink_b.monitor"))
    // WirePlumber writes the chosen default to XDG_STATE_HOME about a second later and
    // restores it on start; `pulseaudio -n` loads no restore module: its script's default.
    usleep(1_500_000)
    try fixture.server.restart()
    let restored = kind == .pipewire ? "pb_sink_b.monitor" : "pb_sink_a.monitor"
    #expect(
      fixture.waitRecording(restored, timeout: PulseCaptureFixture.reconnection),
      "status \(fixture.buffer.status)")
    try fixture.expectHearsTone(on: nil)
  }

  @Test(
    "started before the server exists, it connects once the server appears",
    arguments: AudioServerKind.allCases)
  func startsBeforeServer(_ kind: AudioServerKind) throws {
    let fixture = try PulseCaptureFixture(kind, startServer: false)
    usleep(500_000)
    #expect(!fixture.buffer.status.connected)
    try fixture.server.start()
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
  }

  @Test(
    "a named monitor source stays put on default-sink switches and tracks its own sink",
    arguments: AudioServerKind.allCases)
  func namedSource(_ kind: AudioServerKind) throws {
    let fixture = try PulseCaptureFixture(kind, sourceName: "pb_sink_b.monitor")
    #expect(fixture.waitRecording("pb_sink_b.monitor"))
    // Both servers move streams off the old default (PulseAudio 15+, WirePlumber); a named
    // source asks not to be moved (PA_STREAM_DONT_MOVE, which pipewire-pulse honours too).
    try fixture.server.setDefaultSink("pb_sink_b")
    try fixture.server.setDefaultSink("pb_sink_a")
    usleep(300_000)
    // Indexes differ (PulseAudio counts sources from 0, PipeWire gives node ids): compare
    // the source-output's source with pb_sink_b.monitor's index.
    let outputs = try fixture.server.pactl(["list", "short", "source-outputs"])
    let monitorB = try fixture.server.sourceIndex("pb_sink_b.monitor")
    #expect(
      outputs.count == 1 && outputs[0].split(separator: "\t").dropFirst().first == monitorB?[...],
      "\(outputs), pb_sink_b.monitor is \(monitorB ?? "missing")")
    #expect(fixture.buffer.status.sourceName == "pb_sink_b.monitor")
    try fixture.expectIgnoresTone(on: "pb_sink_a")
    try fixture.expectHearsTone(on: "pb_sink_b")
  }

  @Test("stop disconnects and is idempotent", arguments: AudioServerKind.allCases)
  func stopIsIdempotent(_ kind: AudioServerKind) throws {
    let fixture = try PulseCaptureFixture(kind)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    fixture.stopSource()
    fixture.stopSource()
    #expect(!fixture.buffer.status.connected)
    let clients = try fixture.server.pactl(["list", "short", "clients"])
    #expect(clients.filter { $0.contains("pulsebar") }.isEmpty, "\(clients)")
  }
}

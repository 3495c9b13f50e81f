import Glibc
import PulseBarCore
import PulseBarTestSupport
import Testing

@testable import PulseBarAudio

/// ``PipeWireSource`` with `input.scope = player` against a private PipeWire session, in
/// process: the player is told by hand (``PipeWireSource/follow(player:)``), as the engine
/// tells it from MPRIS, and is a process playing a tone; another process plays another tone
/// into the same sink. Skipped, saying why, where PipeWire is not installed.
@Suite("PipeWireSource records the active player's own stream nodes", .serialized)
struct PipeWirePlayerScopeTests {
  /// The player's tone and the other program's.
  static let playerTone = 200.0
  static let otherTone = 2000.0

  /// Waits until the player's streams deliver and the monitor stream has handed over to them.
  func waitForHandOver(_ fixture: PulseCaptureFixture, count: Int = 1) -> Bool {
    fixture.waitDebugLine(
      "PipeWire: capture stream inactive (the player's streams are recorded)", count: count)
  }

  /// The player's tone against the other's in what arrives for `seconds`.
  func powers(_ fixture: PulseCaptureFixture, seconds: Double = 0.5) -> (
    player: Double, other: Double
  ) {
    let samples = fixture.collectPlaying(for: seconds)
    return (power(at: Self.playerTone, in: samples), power(at: Self.otherTone, in: samples))
  }

  /// Waits until the player named `name` is recorded and its streams deliver, and expects its
  /// tone alone.
  func expectPlayerAlone(
    _ fixture: PulseCaptureFixture, _ name: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      fixture.wait(PulseCaptureFixture.serverReaction) {
        $0.sourceName.hasPrefix("\(name) (node ") && !$0.othersPlay
      } != nil, "\(fixture.buffer.status); \(fixture.debugLines)", sourceLocation: sourceLocation)
    #expect(waitForHandOver(fixture), "\(fixture.debugLines)", sourceLocation: sourceLocation)
    let alone = powers(fixture)
    #expect(alone.player > 1000 * alone.other, "\(alone)", sourceLocation: sourceLocation)
  }

  /// A source recording the default sink's monitor while the player's tone and the other's
  /// play (paplay each), the other's for `otherSeconds`.
  func playingBoth(otherSeconds: Double = 10, suspendOnIdle: Bool = false) throws -> (
    PulseCaptureFixture, player: ChildProcess, other: ChildProcess
  ) {
    let fixture = try PulseCaptureFixture(.pipewire, native: true, suspendOnIdle: suspendOnIdle)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    let player = try fixture.server.play(tone: Self.playerTone, seconds: 10)
    let other = try fixture.server.play(tone: Self.otherTone, seconds: otherSeconds)
    return (fixture, player, other)
  }

  /// ``playingBoth(otherSeconds:suspendOnIdle:)``, the player (named `tone`) followed and
  /// recorded alone.
  func recordingThePlayer() throws -> (
    PulseCaptureFixture, player: ChildProcess, other: ChildProcess
  ) {
    let (fixture, player, other) = try playingBoth()
    fixture.source.follow(
      player: PlayerAudioIdentity(name: "tone", processID: player.pid, playing: true))
    expectPlayerAlone(fixture, "tone")
    return (fixture, player, other)
  }

  /// The pipewire-pulse sink input of stream node `node` (its index is the node's serial).
  func sinkInput(of node: String, _ fixture: PulseCaptureFixture) throws -> String {
    var index: Substring?
    for line in try fixture.server.pactl(["list", "sink-inputs"]) {
      if line.hasPrefix("Sink Input #") { index = line.dropFirst("Sink Input #".count) }
      if line.contains("object.id = \"\(node)\""), let index { return String(index) }
    }
    throw SpawnError(message: "no sink input for node \(node)")
  }

  @Test("the playing player's node alone; paused: the whole output, and others play")
  func recordsThePlayerAlone() throws {
    let (fixture, player, other) = try playingBoth()
    defer { for process in [player, other] { process.send(SIGKILL) } }
    #expect(fixture.wait(PulseCaptureFixture.serverReaction) { $0.activity == .running } != nil)
    var identity = PlayerAudioIdentity(name: "paplay", processID: player.pid, playing: true)
    fixture.source.follow(player: identity)
    expectPlayerAlone(fixture, "paplay")

    identity.playing = false
    fixture.source.follow(player: identity)
    #expect(
      fixture.wait(PulseCaptureFixture.serverReaction) {
        $0.sourceName == "pb_sink_a.monitor (output: paplay does not play)" && $0.othersPlay
          && $0.activity == .running
      } != nil, "\(fixture.buffer.status)")
    #expect(fixture.waitDebugLine("PipeWire: capture stream active (a stream plays)"))
    let both = powers(fixture)
    #expect(both.other > both.player / 10 && both.player > both.other / 10, "\(both)")
  }

  @Test("a native stream (pw-play) is its client's process's")
  func matchesANativeStreamByItsClient() throws {
    let fixture = try PulseCaptureFixture(.pipewire, native: true)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    let tone = "\(fixture.server.directory)/native-tone.wav"
    try fixture.server.run(
      "sox", ["-n", "-r", "48000", "-c", "2", tone, "synth", "10", "sine", "200", "vol", "0.5"])
    let player = try ChildProcess("pw-play", [tone], environment: fixture.server.environment)
    let other = try fixture.server.play(tone: Self.otherTone, seconds: 10)
    defer { for process in [player, other] { process.send(SIGKILL) } }
    fixture.source.follow(
      player: PlayerAudioIdentity(name: "player", processID: player.pid, playing: true))
    expectPlayerAlone(fixture, "player")
  }

  @Test(
    "a player's several streams (a child process each) are mixed; one moved to another sink is still recorded"
  )
  func mixesAndFollowsAMove() throws {
    let fixture = try PulseCaptureFixture(.pipewire, native: true)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    // Made first, so the wrapper plays both at once.
    for (frequency, seconds) in [(Self.playerTone, 10.0), (700, 10)] {
      try fixture.server.play(tone: frequency, seconds: seconds).send(SIGKILL)
    }
    let directory = fixture.server.directory
    let wrapper = try ChildProcess(
      "sh",
      [
        "-c",
        "paplay \(directory)/tone-200-10000-50.wav & paplay \(directory)/tone-700-10000-50.wav & wait",
      ], environment: fixture.server.environment)
    let other = try fixture.server.play(tone: Self.otherTone, seconds: 10)
    defer { for process in [wrapper, other] { process.send(SIGKILL) } }
    fixture.source.follow(
      player: PlayerAudioIdentity(name: "wrapper", processID: wrapper.pid, playing: true))
    let mixed = fixture.wait(PulseCaptureFixture.serverReaction) {
      $0.sourceName.hasPrefix("wrapper (nodes ")
    }
    #expect(mixed != nil, "\(fixture.buffer.status); \(fixture.debugLines)")
    #expect(waitForHandOver(fixture), "\(fixture.debugLines)")
    let samples = fixture.collectPlaying(for: 0.5)
    let (low, middle, high) = (
      power(at: Self.playerTone, in: samples), power(at: 700, in: samples),
      power(at: Self.otherTone, in: samples)
    )
    #expect(low > 1000 * high && middle > 1000 * high, "\(low) \(middle) \(high)")

    // One of the wrapper's streams moves to pb_sink_b: its node is still recorded.
    let source = fixture.buffer.status.sourceName
    let ids = source.split(separator: " ").dropLast().last
    let node = try #require(ids.map { String($0.filter(\.isNumber)) })
    try fixture.server.pactl(["move-sink-input", try sinkInput(of: node, fixture), "pb_sink_b"])
    usleep(500_000)
    #expect(fixture.buffer.status.sourceName == source)
    let moved = fixture.collectPlaying(for: 0.5)
    #expect(
      power(at: 700, in: moved) > 1000 * power(at: Self.otherTone, in: moved)
        && power(at: Self.playerTone, in: moved) > 1000 * power(at: Self.otherTone, in: moved),
      "\(fixture.debugLines)")
  }

  @Test("the player's stream ends: the whole output; when nothing plays the sink suspends")
  func endsAndLetsTheSinkSuspend() throws {
    let (fixture, player, other) = try playingBoth(otherSeconds: 3, suspendOnIdle: true)
    defer { player.send(SIGKILL) }
    fixture.source.follow(
      player: PlayerAudioIdentity(name: "tone", processID: player.pid, playing: true))
    #expect(waitForHandOver(fixture), "\(fixture.debugLines)")
    // Named apart from paplay: the name rule would take the other paplay's stream for it.
    player.send(SIGKILL)
    #expect(
      fixture.wait(PulseCaptureFixture.serverReaction) {
        $0.sourceName == "pb_sink_a.monitor (output: no stream of tone plays)"
      } != nil, "\(fixture.buffer.status)")
    // The killed player's last quantum may still be in the sink.
    let others = powers(fixture, seconds: 0.3)
    #expect(others.other > 10 * others.player, "\(others); \(fixture.debugLines)")
    _ = try other.waitForExit(timeout: 5)
    let state = try fixture.server.waitForSinkState("pb_sink_a", "SUSPENDED", timeout: 5)
    #expect(state == "SUSPENDED", "pb_sink_a is \(state) while nothing plays")
    #expect(fixture.buffer.status.activity == .none)
  }

  @Test("scope output: the whole output whoever plays; a reload to player records the player")
  func scopeOutputThenPlayer() throws {
    let (fixture, player, other) = try playingBoth()
    fixture.source.reconfigure(CaptureChange(scope: .output))
    defer { for process in [player, other] { process.send(SIGKILL) } }
    fixture.source.follow(
      player: PlayerAudioIdentity(name: "paplay", processID: player.pid, playing: true))
    usleep(500_000)
    #expect(fixture.buffer.status.sourceName == "pb_sink_a.monitor")
    let both = powers(fixture)
    #expect(both.other > both.player / 10 && both.player > both.other / 10, "\(both)")
    #expect(!fixture.debugLines.contains { $0.hasPrefix("PipeWire: recording node") })

    fixture.source.reconfigure(CaptureChange(scope: .player))
    expectPlayerAlone(fixture, "paplay")
  }

  @Test("a reload to mono remakes the player's streams at the new channel count")
  func reformatsThePlayersStreams() throws {
    let (fixture, player, other) = try recordingThePlayer()
    defer { for process in [player, other] { process.send(SIGKILL) } }
    let mono = CaptureFormat(channels: 1, fps: 60)
    fixture.buffer.reconfigure(mono)
    fixture.source.reconfigure(CaptureChange(format: mono))
    #expect(fixture.waitDebugLine("PipeWire: recording node", count: 2), "\(fixture.debugLines)")
    #expect(waitForHandOver(fixture, count: 2), "\(fixture.debugLines)")
    // Mono read as stereo's left channel: every other sample, at half the rate.
    let samples = fixture.collectPlaying(for: 0.5)
    let (low, high) = (
      power(at: Self.playerTone, in: samples, sampleRate: 22050),
      power(at: Self.otherTone, in: samples, sampleRate: 22050)
    )
    #expect(samples.count > 44100 / 3 && low > 1000 * high, "\(samples.count) \(low) \(high)")
  }

  @Test("a default-sink switch while the player's streams deliver resets nothing")
  func defaultSwitchKeepsThePlayer() throws {
    let (fixture, player, other) = try recordingThePlayer()
    defer { for process in [player, other] { process.send(SIGKILL) } }
    let before = fixture.buffer.status
    try fixture.server.setDefaultSinkNatively("pb_sink_b")
    #expect(fixture.waitDebugLine("PipeWire: recording pb_sink_b.monitor"))
    let after = fixture.buffer.status
    #expect(after.generation == before.generation && after.sourceName == before.sourceName)
    let alone = powers(fixture)
    #expect(alone.player > 1000 * alone.other, "\(alone)")
    // Once the player pauses, the new default's monitor is recorded.
    fixture.source.follow(
      player: PlayerAudioIdentity(name: "tone", processID: player.pid, playing: false))
    #expect(fixture.buffer.status.sourceName.hasPrefix("pb_sink_b.monitor ("))
  }
}

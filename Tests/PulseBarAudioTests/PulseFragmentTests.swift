import Glibc
import PulseBarTestSupport
import Testing

@testable import PulseBarAudio

/// Audio reaches the engine in fragments: on PulseAudio 512 frames for the first half second
/// of music (the first bars follow the sound at once), then 3072 frames, about 14 a second (a
/// light server); on PipeWire one quantum throughout, so the desktop's audio never wakes more
/// often for us. The engine spreads the frames a fragment holds (FramePacer).
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

  /// Expects the arrivals of `seconds` to be `fragment` frames (stereo) each: their median
  /// size, and (over a window long enough to count) no more than the fragment size says. A
  /// loaded machine merges arrivals when this polling thread waits for a core (a CI run saw
  /// 64 of 94), so the lower bound is loose; the median holds the size.
  func expectFragments(
    _ fixture: PulseCaptureFixture, of fragment: Int, for seconds: Double, _ comment: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    // The first read takes what queued meanwhile.
    let sizes = arrivals(fixture, seconds: seconds).dropFirst()
    let median = sizes.sorted().dropFirst(sizes.count / 2).first ?? 0
    #expect(
      median >= fragment && median <= fragment * 2 * 3 / 2,
      "\(comment): median arrival \(median) samples, fragment \(fragment) frames: \(sizes)",
      sourceLocation: sourceLocation)
    guard seconds >= 1 else { return }
    let expected = seconds * 44100 / Double(fragment)
    #expect(
      Double(sizes.count) >= expected * 0.5 && Double(sizes.count) <= expected * 1.15,
      "\(comment): \(sizes.count) arrivals in \(seconds) s, \(expected) expected",
      sourceLocation: sourceLocation)
    let large = sizes.filter { $0 > fragment * 2 * 5 / 2 }
    #expect(
      large.count <= 2, "\(comment): arrivals over 2.5 fragments: \(large)",
      sourceLocation: sourceLocation)
  }

  @Test(
    "PulseAudio: onset fragments for the first half second of music, then steady ones; a pause makes the next onset fast again"
  )
  func pulseAudioFragmentsFollowTheMusic() throws {
    typealias Settings = PulseSource.Settings
    let fixture = try PulseCaptureFixture(.pulseaudio)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    for (rounds, round) in ["first music", "music after a pause"].enumerated().map({ ($0 + 1, $1) })
    {
      // Longer than a round can take on a loaded machine (the waits below add up to ~12 s at
      // worst; a CI run saw the 6 s tone end inside the steady window): killed at its end.
      let player = try fixture.server.play(tone: 1000, seconds: 15)
      defer { player.send(SIGKILL) }
      #expect(fixture.waitForSamples(), "\(round): no samples")
      // 512 frames: 86 a second at 44.1 kHz; for as long as music plays they would double
      // the server's share, so they last half a second of audio.
      expectFragments(fixture, of: Settings.onsetFragmentFrames, for: 0.3, "\(round), onset")
      let grown = "PulseAudio: fragment \(Settings.steadyFragmentFrames) frames"
      _ = fixture.waitDebugLine(grown, count: rounds)
      #expect(
        fixture.debugLines.filter { $0.hasPrefix(grown) }.count == rounds,
        "\(round): \(fixture.debugLines)")
      usleep(300_000)
      expectFragments(fixture, of: Settings.steadyFragmentFrames, for: 2, "\(round), steady")
      player.send(SIGKILL)
      #expect(
        fixture.wait(PulseCaptureFixture.serverReaction) { $0.activity != .running } != nil,
        "\(round): still running after the player ended")
      #expect(
        fixture.waitDebugLine("PulseAudio: fragment \(Settings.onsetFragmentFrames) frames"),
        "\(round): the onset fragment is not back: \(fixture.debugLines)")
      usleep(200_000)
      _ = arrivals(fixture, seconds: 0.05)
    }
  }

  @Test("PipeWire: audio arrives one quantum at a time, as often as the quantum says")
  func pipeWireQuantumFragments() throws {
    let fixture = try PulseCaptureFixture(.pipewire)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    let player = try fixture.server.play(tone: 1000, seconds: 10)
    defer { player.send(SIGKILL) }
    #expect(fixture.waitForSamples())
    usleep(300_000)
    // Its 1024-frame quantum at 48 kHz is 941 samples at our 44.1 kHz (47 a second), from
    // the first sound on: a smaller onset fragment would lower the desktop's period.
    expectFragments(fixture, of: 941, for: 2, "PipeWire")
  }

  @Test("on PipeWire the record stream never asks for a latency under the default quantum")
  func keepsPipeWireQuantum() throws {
    let fixture = try PulseCaptureFixture(.pipewire)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    let player = try fixture.server.play(tone: 1000, seconds: 6)
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

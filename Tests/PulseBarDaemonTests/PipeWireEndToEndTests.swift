import Glibc
import PulseBarTestSupport
import Testing

/// The real `pulsebar run --input pipewire` (native libpipewire capture) and `--input auto`
/// against private servers: frames read from its stdout while real players play.
@Suite("pulsebar run with native PipeWire capture and auto input, end to end", .serialized)
struct PipeWireEndToEndTests {
  typealias Daemon = PulseEndToEndTests.Daemon

  @Test("--input pipewire: playing with moving bars for a tone, then stopped; paused when corked")
  func playingPausedStopped() throws {
    let daemon = try Daemon(.pipewire, input: "pipewire")
    let player = try daemon.server.play(tone: 1000, seconds: 10)
    PulseEndToEndTests.expectStraightToPlaying(daemon)
    var heights: Set<String> = []
    let moving = daemon.waitForFrame(timeout: 5) { frame in
      if frame.bars.max() ?? 0 > 0.3 { heights.insert("\(frame.bars)") }
      return heights.count >= 3
    }
    #expect(moving != nil, "bars never moved: \(heights)")
    #expect(moving?.0.source == "pb_sink_a.monitor" && moving?.0.connected == true)
    player.send(SIGKILL)
    #expect(daemon.waitForFrame(timeout: 5) { $0.state == "stopped" } != nil)

    let tone = try PulseTonePlayer(server: daemon.server.serverAddress, frequency: 440)
    PulseEndToEndTests.expectStraightToPlaying(daemon)
    tone.setCorked(true)
    #expect(daemon.waitForFrame(timeout: 5) { $0.state == "paused" } != nil)
    tone.stop()
    #expect(daemon.waitForFrame(timeout: 5) { $0.state == "stopped" } != nil)
    #expect(daemon.process.isRunning)
  }

  @Test("--input pipewire follows MPRIS players: a paused mpv gives its title and paused")
  func followsPlayers() throws {
    let daemon = try Daemon(.pipewire, input: "pipewire")
    let track = try MPRISFixtures.taggedTrack(
      in: daemon.server.directory, "first", title: "First Song", hertz: 440)
    // The session's environment names its own bus, which the daemon follows.
    let player = try MPRISFixtures.mpv(
      [track], paused: true, environment: daemon.server.environment)
    let appeared = daemon.waitForFrame(timeout: 10) {
      $0.string("player") == "mpv" && $0.string("title") == "First Song"
    }
    #expect(appeared != nil, "mpv never appeared: \(daemon.process.standardError)")
    #expect(daemon.waitForFrame(timeout: 15) { $0.state == "paused" } != nil, "not paused")
    player.send(SIGKILL)
  }

  @Test("--input pipewire, idle: once the resting frame is out, no lines for 3 s")
  func idleWritesNothing() throws {
    try PulseEndToEndTests.expectIdleWritesNothing(.pipewire, input: "pipewire")
  }

  @Test("--input pipewire: a reload from mono to stereo remakes the stream; audio keeps flowing")
  func reloadToStereo() throws {
    try PulseEndToEndTests.expectReloadToStereoKeepsFlowing(.pipewire, input: "pipewire")
  }

  @Test("native PipeWire captures at the graph's rate, so nothing resamples in pulsebar")
  func capturesAtTheGraphRate() throws {
    let daemon = try Daemon(.pipewire, input: "auto", arguments: ["-v"])
    let session = try #require(daemon.server as? PrivatePipeWireSession)
    let player = try daemon.server.play(tone: 1000, seconds: 6)
    defer { player.send(SIGKILL) }
    PulseEndToEndTests.expectStraightToPlaying(daemon)
    // The session runs at PipeWire's default 48 kHz; a 44.1 kHz stream would show here as
    // "F32LE 1 44100", converted by the adapter inside pulsebar.
    let format = try session.format(of: "pulsebar")
    #expect(format?.hasSuffix(" 48000") == true, "pw-top shows \(format ?? "no row") for pulsebar")
    #expect(
      daemon.process.standardError.contains("PipeWire: capturing at 48000 Hz, the graph's rate"),
      "\(daemon.process.standardError)")
  }

  @Test(
    "native PipeWire capture maps neither libpulse nor libsndfile (nor their codecs); libpulse capture opens libpulse",
    arguments: [("pipewire", false), ("pulse", true)])
  func loadsOnlyItsOwnAudioLibrary(input: String, mapsLibpulse: Bool) throws {
    let daemon = try Daemon(.pipewire, input: input)
    let player = try daemon.server.play(tone: 1000, seconds: 6)
    defer { player.send(SIGKILL) }
    PulseEndToEndTests.expectStraightToPlaying(daemon)
    let libraries = Set(
      try readTextFile("/proc/\(daemon.process.pid)/maps").split(separator: "\n").compactMap {
        $0.split(separator: "/").last.map { String($0.prefix { $0 != "." }) }
      })
    #expect(
      libraries.contains("libpulse") == mapsLibpulse, "--input \(input): \(libraries.sorted())")
    // libpulse's own libpulsecommon brings libsndfile and the codecs with it.
    for library in ["libpulsecommon-16", "libsndfile", "libvorbisenc", "libFLAC", "libX11"] {
      #expect(
        libraries.contains(library) == mapsLibpulse, "--input \(input): \(library) mapped or not")
    }
  }

  @Test(
    "--input auto picks native PipeWire on a PipeWire session and libpulse on PulseAudio",
    arguments: AudioServerKind.allCases)
  func autoPicksTheServer(_ kind: AudioServerKind) throws {
    let daemon = try Daemon(kind, input: "auto", arguments: ["-v"])
    let player = try daemon.server.play(tone: 1000, seconds: 5)
    PulseEndToEndTests.expectStraightToPlaying(daemon)
    player.send(SIGKILL)
    let log = daemon.process.standardError.split(separator: "\n")
    let picked = log.first { $0.contains("input auto: ") } ?? ""
    let expected = kind == .pipewire ? "input auto: native PipeWire" : "input auto: libpulse"
    #expect(picked.contains(expected), "\(log)")
    let lines = log.filter {
      $0.hasPrefix("pulsebar: PipeWire: ") || $0.hasPrefix("pulsebar: PulseAudio: ")
    }
    let prefix = kind == .pipewire ? "pulsebar: PipeWire: " : "pulsebar: PulseAudio: "
    #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix(prefix) }, "\(log)")
  }
}

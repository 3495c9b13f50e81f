import Glibc
import PulseBarTestSupport
import Testing

/// The real `pulsebar run --input pulse` against a private PulseAudio server and a private
/// PipeWire session (through pipewire-pulse): frames read from its stdout while real players
/// play into null sinks.
@Suite("pulsebar run with PulseAudio and PipeWire, end to end", .serialized)
struct PulseEndToEndTests {
  /// A private server and the daemon on its default sink's monitor, json frames on stdout.
  final class Daemon {
    let server: any PrivateAudioServer
    let process: ChildProcess
    /// How long the server's idle null sink renders ahead before a new stream's latency holds.
    var renderAhead: Double { server.kind == .pulseaudio ? 2.2 : 0.2 }

    /// A kind that is not installed cancels the test case, saying why.
    /// With `suspendOnIdle`, a sink nobody keeps busy suspends after 1 s. `input` is what
    /// `--input` gets (`pipewire`: native capture, on a PipeWire session).
    /// With `hiding` (a soname such as `libpulse.so.0`) the daemon runs as on a machine
    /// without that library (``AudioLibraryTests/hidden(_:)``).
    init(
      _ kind: AudioServerKind, input: String = "pulse", arguments: [String] = [],
      suspendOnIdle: Bool = false, hiding library: String? = nil
    ) throws {
      try kind.skipUnlessRunnable()
      server = try kind.start(suspendOnIdle: suspendOnIdle, idleSeconds: 1)
      #expect(access(Binary.path, X_OK) == 0, "build pulsebar first: \(Binary.path) is missing")
      let command =
        [Binary.path, "run", "--input", input, "--format", "json", "--bars", "8"] + arguments
      let full = try (library.map(AudioLibraryTests.hidden) ?? []) + command
      process = try ChildProcess(full[0], Array(full.dropFirst()), environment: server.environment)
      // The first frame, then let the idle null sink's 2 s render-ahead block pass so
      // the daemon's one-frame latency is in force before anything is timed. PipeWire's null
      // sink renders one quantum at a time: a new stream's samples come within ~0.1 s.
      let first = process.readLine(timeout: 10)
      #expect(first != nil, "no first frame: \(process.standardError)")
      _ = process.readLines(for: renderAhead)
    }

    deinit {
      process.send(SIGTERM)
      _ = try? process.waitForExit(timeout: 5)
      server.stop()
    }

    /// Reads frames until one satisfies `predicate`; it and the seconds it took.
    func waitForFrame(timeout: Double, where predicate: (Frame) -> Bool) -> (Frame, Double)? {
      let start = ChildProcess.now()
      guard let line = process.waitForLine(timeout: timeout, where: { predicate(Frame($0)) })
      else { return nil }
      return (Frame(line), ChildProcess.now() - start)
    }
  }

  /// Waits for `playing` and expects no `paused` frame on the way (the state debounce: a
  /// server may report a new stream corked before it runs; players that start corked, as mpv
  /// does, always are. paplay's streams showed no corked step on PulseAudio 16 or
  /// pipewire-pulse 0.3.65, polled every 0.5 ms).
  /// The timeout is for a loaded machine (a CI run's parallel servers): playback shows within
  /// ~0.1 s here; the tests that time it say so themselves.
  @discardableResult
  static func expectStraightToPlaying(_ daemon: Daemon, timeout: Double = 8) -> Bool {
    var states: [String] = []
    let playing = daemon.waitForFrame(timeout: timeout) { frame in
      states.append(frame.state)
      return frame.state == "playing"
    }
    #expect(
      playing != nil, "never playing; states \(states); stderr: \(daemon.process.standardError)")
    #expect(!states.contains("paused"), "states on the way: \(states)")
    return playing != nil
  }

  /// The fields of one json frame the tests look at.
  struct Frame {
    let line: String
    init(_ line: String) { self.line = line }

    /// The raw text of a top-level scalar field.
    func field(_ name: String) -> Substring? {
      guard let range = line.firstRange(of: "\"\(name)\":") else { return nil }
      let rest = line[range.upperBound...]
      let end = rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex
      return rest[..<end]
    }

    var state: String { field("state").map { String($0.filter { $0 != "\"" }) } ?? "" }
    var connected: Bool { field("connected") == "true" }
    var source: String { field("source").map { String($0.filter { $0 != "\"" }) } ?? "" }
    var bars: [Double] {
      guard let range = line.firstRange(of: "\"bars\":[") else { return [] }
      let rest = line[range.upperBound...]
      return rest[..<(rest.firstIndex(of: "]") ?? rest.endIndex)].split(separator: ",")
        .compactMap { Double($0) }
    }
  }

  /// A daemon playing a 6 s tone, past its start: what the pacing tests measure.
  static func settledOnATone(_ kind: AudioServerKind) throws -> (Daemon, ChildProcess) {
    let daemon = try Daemon(kind)
    let player = try daemon.server.play(tone: 440, seconds: 6)
    expectStraightToPlaying(daemon)
    _ = daemon.process.readLines(for: 0.5)
    return (daemon, player)
  }

  /// A fragment holds a few frames (PulseAudio: 3072 once music plays; PipeWire: one quantum);
  /// the engine draws them one at a time, spaced, not in a burst per fragment (which a bar
  /// shows as ~20 updates a second).
  @Test(
    "while music plays, frames come one at a time at the frame rate, not a fragment's burst",
    arguments: AudioServerKind.allCases)
  func framesAreSpacedNotBursts(_ kind: AudioServerKind) throws {
    let (daemon, player) = try Self.settledOnATone(kind)
    defer { player.send(SIGKILL) }
    var arrivals: [Double] = []
    let end = ChildProcess.now() + 2
    while ChildProcess.now() < end, daemon.process.readLine(timeout: 1) != nil {
      arrivals.append(ChildProcess.now())
    }
    let gaps = zip(arrivals.dropFirst(), arrivals).map { $0 - $1 }
    #expect(arrivals.count >= 100, "\(arrivals.count) frames in 2 s at 60 fps")
    // In bursts, a third of the gaps would be a whole fragment (~46 ms) and the rest ~0.
    let long = gaps.filter { $0 > 0.035 }.count
    let bunched = gaps.filter { $0 < 0.004 }.count
    #expect(long * 10 <= gaps.count, "\(long) of \(gaps.count) gaps over 35 ms")
    #expect(bunched * 5 <= gaps.count, "\(bunched) of \(gaps.count) gaps under 4 ms")
  }

  /// One wake-up per fragment on our side, and none on a second thread per frame: the daemon
  /// iterates libpulse's mainloop inside its own wait (no libpulse thread), and while frames
  /// are queued it reads the next fragment when the next frame is due rather than waking for
  /// it. Counted as voluntary context switches (sleeps that ended), all threads together.
  @Test(
    "while music plays, one thread wakes about once per frame drawn; no libpulse thread",
    .disabled(
      if: Binary.sanitizer != nil, "a sanitizer's runtime has a thread of its own that wakes"),
    arguments: AudioServerKind.allCases)
  func oneWakeUpPerFrame(_ kind: AudioServerKind) throws {
    let (daemon, player) = try Self.settledOnATone(kind)
    defer { player.send(SIGKILL) }
    // With a libpulse thread: its ~40 wake-ups a second on top of the engine's 60-70 (1.8 a
    // frame). pipewire-pulse's fragment is 1.3 frames (one quantum), so its arrival is more
    // often not a frame's due time: ~1.45 a frame measured there, ~1.0 on PulseAudio.
    Self.expectWakeUps(
      of: daemon, atMost: kind == .pulseaudio ? 1.3 : 1.6, withoutThread: "threaded-ml")
  }

  /// Counts the daemon's voluntary context switches (all threads) over 2 s of frames and
  /// expects at most `most` per frame, and no thread named `thread` (a library's loop).
  static func expectWakeUps(
    of daemon: Daemon, atMost most: Double, withoutThread thread: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let before = MPRISFixtures.wakeups(of: daemon.process.pid)
    let lines = daemon.process.readLines(for: 2).count
    let after = MPRISFixtures.wakeups(of: daemon.process.pid)
    #expect(after[thread] == nil, "a library loop thread: \(after)", sourceLocation: sourceLocation)
    let wakeups = after.values.reduce(0, +) - before.values.reduce(0, +)
    #expect(lines >= 100, "\(lines) frames in 2 s", sourceLocation: sourceLocation)
    #expect(
      Double(wakeups) <= most * Double(lines),
      "\(wakeups) wake-ups for \(lines) frames: \(after)", sourceLocation: sourceLocation)
  }

  @Test("PulseAudio: frames at 30 a second take a steady fragment of a tenth of a second")
  func steadyFragmentFollowsTheFrameRate() throws {
    let daemon = try Daemon(.pulseaudio, arguments: ["--fps", "30", "-v"])
    let player = try daemon.server.play(tone: 440, seconds: 6)
    defer { player.send(SIGKILL) }
    PulseEndToEndTests.expectStraightToPlaying(daemon)
    #expect(
      eventually(timeout: 10) {
        daemon.process.standardError.contains("PulseAudio: fragment 4410 frames")
      }, "\(daemon.process.standardError)")
    #expect(!daemon.process.standardError.contains("PulseAudio: fragment 3072 frames"))
  }

  @Test(
    "a 1 kHz tone lands in the bar whose band holds 1 kHz, and plays within 0.5 s",
    arguments: AudioServerKind.allCases)
  func toneLandsInItsBar(_ kind: AudioServerKind) throws {
    let bands = try Binary.run(["bands", "--bars", "8"]).lines.map {
      $0.split(separator: " ").compactMap { Double($0) }
    }
    let expected = try #require(bands.firstIndex { $0.count == 2 && $0[0] <= 1000 && 1000 < $0[1] })
    let daemon = try Daemon(kind)
    let player = try daemon.server.play(tone: 1000, seconds: 4)
    let playing = daemon.waitForFrame(timeout: 3) { $0.state == "playing" }
    #expect(playing != nil)
    #expect((playing?.1 ?? 99) < 0.5, "playing after \(playing?.1 ?? -1) s")
    // Once the rest heights have crossfaded out (over the morph duration, as the morph).
    let loud = daemon.waitForFrame(timeout: 2) { frame in
      let bars = frame.bars
      return bars.count == 8 && bars[expected] > 0.5 && frame.field("morph") == "1.000"
    }
    #expect(loud != nil, "bar \(expected) never rose")
    if let bars = loud?.0.bars {
      let others = bars.indices.filter { abs($0 - expected) > 1 }.map { bars[$0] }
      #expect(others.allSatisfy { $0 < 0.2 }, "bars \(bars)")
    }
    player.send(SIGKILL)
  }

  @Test(
    "a reload from mono to stereo rebuilds the record stream: audio keeps flowing in real time",
    arguments: AudioServerKind.allCases)
  func reloadToStereoRebuildsTheRecordStream(_ kind: AudioServerKind) throws {
    try Self.expectReloadToStereoKeepsFlowing(kind, input: "pulse")
  }

  /// A daemon on `input` started in mono, sound, a reload to stereo: frames keep coming in
  /// real time with the sound in them (mono samples in a stereo buffer would be dropped).
  ///
  /// The sound is pink noise under a 5 Hz tremolo, so every frame differs: a steady tone
  /// settles into identical lines once the reload's hand-over raises no bubble, and an
  /// identical line is not written (json's change check leaves `time` out), which would read
  /// as a stall.
  static func expectReloadToStereoKeepsFlowing(_ kind: AudioServerKind, input: String) throws {
    let config = Binary.temporaryDirectory() + "/pulsebar.conf"
    try writeTextFile(config, "[general]\nchannels = mono\n")
    let daemon = try Daemon(kind, input: input, arguments: ["--config", config, "-v"])
    // Outlasts the waits below on a loaded machine (up to 8 s to play, 3.5 s after the reload).
    let noise = daemon.server.directory + "/warbling-noise.wav"
    try daemon.server.run(
      "sox",
      [
        "-n", "-r", "44100", "-c", "2", "-b", "16", noise, "synth", "15", "pinknoise",
        "tremolo", "5", "80", "vol", "0.5",
      ])
    let player = try daemon.server.play(file: noise)
    Self.expectStraightToPlaying(daemon)
    try writeTextFile(config, "[general]\nchannels = stereo\n")
    daemon.process.send(SIGHUP)
    _ = daemon.process.readLines(for: 0.5)
    let start = ChildProcess.now()
    let frames = daemon.process.readLines(for: 3).map(Frame.init)
    let wall = ChildProcess.now() - start
    let times = frames.compactMap { $0.field("time").flatMap { Double($0) } }
    let pace = ((times.last ?? 0) - (times.first ?? 0)) / wall
    // What this guards against stops the audio (mono samples written into the stereo buffer
    // are dropped: the state check below) or doubles the pace (stereo read as mono). The lower
    // bound only catches a stall: a debug build starved by the full parallel suite on two
    // cores falls well below real time without anything being wrong.
    #expect(
      pace > 0.3 && pace < 1.15,
      "\(pace) s of audio per second over \(frames.count) frames; stderr: \(daemon.process.standardError)"
    )
    // Mono samples written into the stereo buffer would be dropped: no sound, and `paused`
    // after the 2 s silence timeout. Sound after 3 s means the stream was rebuilt in stereo.
    #expect(
      frames.last?.state == "playing",
      "\(frames.last?.line ?? "no frame"); stderr: \(daemon.process.standardError)")
    #expect(frames.allSatisfy { $0.connected })
    #expect((frames.last?.bars.max() ?? 0) > 0.1, "\(frames.last?.line ?? "no frame")")
    player.send(SIGKILL)
  }

  @Test(
    "a player that ends gives stopped; one that pauses gives paused",
    arguments: AudioServerKind.allCases)
  func playingThenPausedOrStopped(_ kind: AudioServerKind) throws {
    let daemon = try Daemon(kind)
    let player = try daemon.server.play(tone: 440, seconds: 10)
    Self.expectStraightToPlaying(daemon)
    player.send(SIGKILL)
    let stopped = daemon.waitForFrame(timeout: 2.5) { $0.state == "stopped" }
    #expect(stopped != nil, "no stopped frame within 2.5 s")
    #expect(daemon.process.isRunning)

    let tone = try PulseTonePlayer(server: daemon.server.serverAddress, frequency: 440)
    Self.expectStraightToPlaying(daemon)
    tone.setCorked(true)
    let paused = daemon.waitForFrame(timeout: 2.5) { $0.state == "paused" }
    #expect(paused != nil, "no paused frame within 2.5 s")
    tone.stop()
    #expect(daemon.waitForFrame(timeout: 2.5) { $0.state == "stopped" } != nil)
  }

  @Test(
    "idle: once the resting frame is out, no lines for 3 s", arguments: AudioServerKind.allCases)
  func idleWritesNothing(_ kind: AudioServerKind) throws {
    try Self.expectIdleWritesNothing(kind, input: "pulse")
  }

  /// A daemon on `input`, a short tone, then once the resting frame is out no lines for 3 s.
  static func expectIdleWritesNothing(_ kind: AudioServerKind, input: String) throws {
    let daemon = try Daemon(kind, input: input)
    let player = try daemon.server.play(tone: 440, seconds: 1)
    #expect(daemon.waitForFrame(timeout: 3) { $0.state == "playing" } != nil)
    _ = try player.waitForExit(timeout: 5)
    #expect(daemon.waitForFrame(timeout: 3) { $0.state == "stopped" } != nil)
    // The bars settle to their rest heights, the morph ends, the bubbles (4 s) fade out.
    let settled = daemon.waitForFrame(timeout: 8) { frame in
      frame.state == "stopped" && frame.line.contains("\"bubbles\":[]")
        && frame.field("morph") == "0.000"
    }
    #expect(settled != nil, "never settled")
    let lines = daemon.process.readLines(for: 3)
    #expect(lines.isEmpty, "\(lines.count) lines while idle, first: \(lines.first ?? "")")
  }

  @Test(
    "the server killed and restarted: frames say disconnected, then resume",
    arguments: AudioServerKind.allCases)
  func survivesServerRestart(_ kind: AudioServerKind) throws {
    let daemon = try Daemon(kind)
    daemon.server.kill()
    let down = daemon.waitForFrame(timeout: 2) { !$0.connected }
    #expect(down != nil, "no disconnected frame")
    #expect(down?.0.state == "stopped")
    usleep(1_000_000)  // several retries: 100, 200, 400 ms…
    try daemon.server.start()
    // The back-off's longest step (2 s) may have been reached while it was down.
    #expect(daemon.waitForFrame(timeout: 7) { $0.connected } != nil)
    #expect(daemon.process.isRunning)
    // One line for the outage however many retries it took, one for the return.
    let log = daemon.process.standardError.split(separator: "\n")
    #expect(log.filter { $0.contains("retrying") }.count == 1, "\(log)")
    #expect(log.filter { $0.contains("connected again") }.count == 1, "\(log)")
    _ = daemon.process.readLines(for: daemon.renderAhead)
    let player = try daemon.server.play(tone: 1000, seconds: 4)
    Self.expectStraightToPlaying(daemon)
    player.send(SIGKILL)
  }

  @Test(
    "switching the default sink while music plays: no paused frame, playing after",
    arguments: AudioServerKind.allCases)
  func sinkSwitchWhilePlayingShowsNoPause(_ kind: AudioServerKind) throws {
    let daemon = try Daemon(kind)
    let tone = try PulseTonePlayer(server: daemon.server.serverAddress, frequency: 440)
    Self.expectStraightToPlaying(daemon)
    // What a desktop does on an output switch: the new default, then the streams moved to it.
    // Both servers move streams that follow the default by themselves (PulseAudio 15+, and
    // WirePlumber on PipeWire), so the moves below usually find them there already; pulsebar's
    // own record stream is moved too, and it must show no pause either way.
    try daemon.server.setDefaultSink("pb_sink_b")
    let inputs = try daemon.server.pactl(["list", "short", "sink-inputs"])
    for input in inputs {
      guard let index = input.split(separator: "\t").first else { continue }
      try daemon.server.pactl(["move-sink-input", String(index), "pb_sink_b"])
    }
    var states: [String] = []
    let moved = daemon.waitForFrame(timeout: 3) { frame in
      states.append(frame.state)
      return frame.source == "pb_sink_b.monitor" && frame.state == "playing"
    }
    #expect(moved != nil, "never playing on pb_sink_b; states \(states)")
    #expect(!states.contains("paused"), "states during the switch: \(states)")
    tone.stop()
  }

  @Test(
    "a default-sink switch is followed: frames name the new monitor and show its audio",
    arguments: AudioServerKind.allCases)
  func followsDefaultSink(_ kind: AudioServerKind) throws {
    // `-v`: a failure prints the capture's debug lines with the daemon's stderr.
    let daemon = try Daemon(kind, arguments: ["-v"])
    try daemon.server.setDefaultSink("pb_sink_b")
    let moved = daemon.waitForFrame(timeout: 5) { $0.source == "pb_sink_b.monitor" }
    #expect(moved != nil, "source never became pb_sink_b.monitor")
    let player = try daemon.server.play(tone: 1000, seconds: 5, sink: "pb_sink_b")
    if !Self.expectStraightToPlaying(daemon) {
      // What the server itself says the default is by now.
      let named = (try? daemon.server.pactl(["get-default-sink"])) ?? []
      Issue.record("the server names \(named) the default sink")
    }
    player.send(SIGKILL)
  }

  @Test(
    "a default-sink switch made with wpctl is followed: frames name the new monitor",
    arguments: ["pulse", "pipewire"])
  func followsWpctlDefault(_ input: String) throws {
    // `-v`: a failure prints the capture's debug lines with the daemon's stderr (a loaded CI
    // run once never saw the player on the new sink).
    let daemon = try Daemon(.pipewire, input: input, arguments: ["-v"])
    try daemon.server.setDefaultSinkNatively("pb_sink_b")
    // wpctl goes through WirePlumber, which takes longer than a pactl switch on a loaded
    // 2-core machine (over 5 s in a full parallel run): the check is that it is followed.
    let moved = daemon.waitForFrame(timeout: 15) { $0.source == "pb_sink_b.monitor" }
    #expect(moved != nil, "source never became pb_sink_b.monitor")
    let player = try daemon.server.play(tone: 1000, seconds: 5, sink: "pb_sink_b")
    Self.expectStraightToPlaying(daemon)
    player.send(SIGKILL)
  }

  @Test(
    "idle, the daemon lets the sink suspend; a new player wakes it and plays at once",
    arguments: AudioServerKind.allCases)
  func sinkSuspendsWhileIdle(_ kind: AudioServerKind) throws {
    let daemon = try Daemon(kind, suspendOnIdle: true)
    let player = try daemon.server.play(tone: 440, seconds: 1)
    #expect(daemon.waitForFrame(timeout: 3) { $0.state == "playing" } != nil)
    _ = try player.waitForExit(timeout: 5)
    // Our corked record stream must not keep the sink busy: suspended 1 s after the player.
    let state = try daemon.server.waitForSinkState("pb_sink_a", "SUSPENDED", timeout: 4)
    #expect(state == "SUSPENDED", "pb_sink_a is \(state) while nothing plays")
    #expect(daemon.process.isRunning)
    let again = try daemon.server.play(tone: 1000, seconds: 4)
    Self.expectStraightToPlaying(daemon)
    again.send(SIGKILL)
  }
}

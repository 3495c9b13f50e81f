import Glibc
import PulseBarSystem
import PulseBarTestSupport
import Testing

/// SIGHUP applies every key that can change live, one test per class of key, on a real daemon
/// playing a file in real time (no audio server needed). Serialized: each measures pace.
@Suite(.serialized) struct ReloadTests {
  /// `pulsebar run --config <config> --input file:<audio> <extra>`, frames on stdout.
  func startDaemon(config: String, audio: String, extra: [String] = []) throws -> ChildProcess {
    let daemon = try ChildProcess(
      Binary.path, ["run", "--config", config, "--input", "file:" + audio] + extra)
    try #require(daemon.readLine(timeout: 10) != nil, "no frame; stderr: \(daemon.standardError)")
    return daemon
  }

  /// Runs `body` in a fresh directory holding a config with `initial` and 30 s of audio:
  /// `sox -n` with `synth` (channels and effects) when given, else `makeTestAudio`'s noise.
  func withFixture(
    config initial: String, synth: (channels: Int, effects: String)? = nil,
    _ body: (_ directory: String, _ audio: String, _ config: String) throws -> Void
  ) throws {
    try withTemporaryDirectory { directory in
      var audio = directory + "/audio.wav"
      if let synth {
        try Binary.shell(
          "sox -n -r 44100 -c \(synth.channels) -b 16 \(audio) synth 30 \(synth.effects)")
      } else {
        audio = try makeTestAudio(in: directory, seconds: 30)
      }
      let config = directory + "/pulsebar.conf"
      try writeTextFile(config, initial)
      try body(directory, audio, config)
    }
  }

  /// Rewrites the config and sends SIGHUP.
  func reload(_ daemon: ChildProcess, config: String, to text: String) throws {
    try writeTextFile(config, text)
    daemon.send(SIGHUP)
  }

  func stop(_ daemon: ChildProcess) throws {
    daemon.send(SIGTERM)
    #expect(try daemon.waitForExit(timeout: 10) == 0, "stderr: \(daemon.standardError)")
  }

  /// The bar heights of a json line.
  func bars(ofJSON line: String) -> [Double]? {
    JSONValue.parse(line)?["bars"]?.array?.compactMap(\.number)
  }

  /// The `time` of a json line.
  func time(ofJSON line: String) -> Double? {
    JSONValue.parse(line)?["time"]?.number
  }

  // MARK: - bars and format

  /// Stdout, a new client that asks nothing, and existing clients all follow a new `bars` and
  /// `format`; a client keeps what it asked for (`format=raw`) and takes the rest (bars).
  @Test func barsAndFormatFollowAReload() throws {
    try withFixture(config: "[general]\nbars = 4\nformat = text\n") { directory, audio, config in
      let socket = directory + "/s.sock"
      let daemon = try startDaemon(config: config, audio: audio, extra: ["--socket", socket])
      #expect(eventually(timeout: 5) { access(socket, F_OK) == 0 })
      let raw = try SocketTestClient(path: socket, send: "format=raw\n")
      let quiet = try SocketTestClient(path: socket, send: "\n")
      #expect(raw.readLine()?.split(separator: ";").count == 4)
      #expect(quiet.readLine()?.split(separator: " ").dropFirst().first?.count == 4)

      try reload(daemon, config: config, to: "[general]\nbars = 6\nformat = json\n")
      let stdout = daemon.waitForLine(timeout: 5) { bars(ofJSON: $0)?.count == 6 }
      #expect(stdout != nil, "stdout kept the old format; stderr: \(daemon.standardError)")
      let fresh = try SocketTestClient(path: socket, send: "\n")
      let first = fresh.readLine()
      #expect(first.flatMap(bars(ofJSON:))?.count == 6, "new default: \(first ?? "nothing")")
      let rawFollows = (0..<200).contains { _ in raw.readLine()?.split(separator: ";").count == 6 }
      #expect(rawFollows, "a format=raw client keeps raw and takes the new bar count")
      let quietFollows = (0..<200).contains { _ in
        quiet.readLine().flatMap(bars(ofJSON:))?.count == 6
      }
      #expect(quietFollows, "a client that asked nothing follows the new default")
      try stop(daemon)
    }
  }

  // MARK: - channels

  /// Mono → stereo rebuilds the capture: audio time keeps pace with the wall clock (before,
  /// mono samples were read as left/right pairs at half speed) and the bars take the stereo
  /// layout (a silent right channel shows as silent bars).
  @Test func monoToStereoKeepsRealTimePaceAndTakesTheStereoLayout() throws {
    // Pink noise on the left, silence on the right.
    try withFixture(
      config: "[general]\nbars = 8\nformat = json\nchannels = mono\n",
      synth: (2, "pinknoise remix 1 0")
    ) { _, audio, config in
      let daemon = try startDaemon(config: config, audio: audio)
      let mono = daemon.readLines(for: 1).compactMap(bars(ofJSON:)).last ?? []
      #expect(mono.count == 8 && silentBars(mono) <= 1, "mono: \(mono)")
      let before = daemon.readLines(for: 0.1).compactMap(time(ofJSON:)).last ?? 0

      try reload(
        daemon, config: config, to: "[general]\nbars = 8\nformat = json\nchannels = stereo\n")
      pause(0.5)
      var lines = daemon.readLines(for: 0.05)
      let start = monotonicSeconds()
      let firstTime = lines.compactMap(time(ofJSON:)).last ?? 0
      lines = daemon.readLines(for: 3)
      let wall = monotonicSeconds() - start
      let audioSeconds = (lines.compactMap(time(ofJSON:)).last ?? 0) - firstTime
      let pace = audioSeconds / wall
      #expect(firstTime >= before, "audio time went back at the reload: \(before) → \(firstTime)")
      #expect(pace > 0.85 && pace < 1.15, "\(audioSeconds) s of audio in \(wall) s")
      let stereo = lines.compactMap(bars(ofJSON:)).last ?? []
      #expect(stereo.count == 8 && silentBars(stereo) >= 4, "stereo: \(stereo)")
      try stop(daemon)
    }
  }

  /// Raw PCM on a FIFO (MPD's fifo output) follows a switch to stereo as well: the reader mixes
  /// to the buffer's channel count at every read, so the silent right channel shows.
  @Test func rawPCMOnAFIFOFollowsASwitchToStereo() throws {
    try withTemporaryDirectory { directory in
      let pcm = directory + "/left.raw"
      try Binary.shell(
        "sox -n -t raw -r 44100 -e signed -b 16 -c 2 \(pcm) synth 8 pinknoise remix 1 0")
      let fifo = directory + "/mpd.fifo"
      #expect(mkfifo(fifo, 0o600) == 0)
      let config = directory + "/pulsebar.conf"
      try writeTextFile(config, "[general]\nbars = 8\nformat = json\nchannels = mono\n")
      let daemon = try ChildProcess(
        Binary.path, ["run", "--config", config, "--input", "fifo:" + fifo])
      // About real time: 25 ms of audio (4410 bytes) every 25 ms or so.
      let writer = try ChildProcess(
        "sh",
        [
          "-c",
          "i=0; while [ $i -lt 320 ]; do dd if=\(pcm) bs=4410 skip=$i count=1 2>/dev/null; sleep 0.025; i=$((i+1)); done > \(fifo)",
        ])
      let mono = daemon.readLines(for: 1.5).compactMap(bars(ofJSON:)).last ?? []
      try reload(
        daemon, config: config, to: "[general]\nbars = 8\nformat = json\nchannels = stereo\n")
      let stereo = daemon.readLines(for: 1.5).compactMap(bars(ofJSON:)).last ?? []
      #expect(mono.count == 8 && silentBars(mono) <= 1, "mono: \(mono)")
      #expect(stereo.count == 8 && silentBars(stereo) >= 4, "stereo: \(stereo)")
      writer.send(SIGKILL)
      _ = try writer.waitForExit(timeout: 5)
      try stop(daemon)
    }
  }

  /// Bars below 0.02: the silent channel's, in a stereo layout.
  func silentBars(_ bars: [Double]) -> Int { bars.filter { $0 < 0.02 }.count }

  // MARK: - fps

  /// A new `fps` changes the frame rate: the capture's chunks follow it. (A file still paced
  /// at the old rate held the analysis at it: one frame per 1/20 s chunk, with ticks between.)
  @Test func fpsFollowsAReload() throws {
    try withFixture(config: "[general]\nbars = 8\nformat = json\nfps = 20\n") { _, audio, config in
      let daemon = try startDaemon(config: config, audio: audio)
      _ = daemon.readLines(for: 0.5)
      let slow = daemon.readLines(for: 2)
      try reload(daemon, config: config, to: "[general]\nbars = 8\nformat = json\nfps = 50\n")
      _ = daemon.readLines(for: 0.5)
      let fast = daemon.readLines(for: 2)
      // Audio time between two frames is one frame of audio, 1/fps s (the median: a frame
      // merged under load does not count).
      #expect(abs(medianStep(slow) - 1.0 / 20) < 0.002, "\(medianStep(slow)) s per frame at 20")
      #expect(abs(medianStep(fast) - 1.0 / 50) < 0.002, "\(medianStep(fast)) s per frame at 50")
      #expect(fast.count > 2 * slow.count, "\(slow.count / 2) → \(fast.count / 2) frames/s")
      try stop(daemon)
    }
  }

  /// The median step of json `time` between consecutive lines.
  func medianStep(_ lines: [String]) -> Double {
    let times = lines.compactMap(time(ofJSON:))
    let steps = zip(times, times.dropFirst()).map { $1 - $0 }.sorted()
    return steps.isEmpty ? 0 : steps[steps.count / 2]
  }

  // MARK: - glyphs, scene, bubbles

  /// New bar, morph and bubble glyphs and a new bubble count show at once, and the scene goes
  /// on: a playing bar stays on the play glyph instead of starting over from `stopped` and
  /// replaying the morph.
  @Test func glyphSceneAndBubbleChangesShowWithoutRestartingTheScene() throws {
    try withFixture(
      config: "[general]\nbars = 4\nformat = text\n",
      synth: (1, "pinknoise tremolo 3 100")
    ) { _, audio, config in
      let daemon = try startDaemon(config: config, audio: audio)
      let playing = daemon.waitForLine(timeout: 5) { $0.hasPrefix("►") }
      #expect(playing != nil, "never playing")
      try reload(
        daemon, config: config,
        to: """
          [general]
          bars = 4
          format = text
          [output]
          bar_glyphs = abcdefgh
          morph_glyphs = PQRS
          [scene]
          morph_duration = 1
          [bubbles]
          glyphs = xyz
          max = 3

          """)
      let reloaded = daemon.waitForLine(timeout: 5) {
        $0.split(separator: " ").count >= 2 && $0.first != "►"
      }
      let lines = daemon.readLines(for: 2)
      let all = (reloaded.map { [$0] } ?? []) + lines
      #expect(!all.isEmpty)
      for line in all {
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        #expect(fields.first == "S", "the play glyph, not a replayed morph: \(line)")
        #expect(fields.count == 3 && fields[1].allSatisfy { "abcdefgh".contains($0) }, "\(line)")
        #expect(fields.count == 3 && fields[2].count == 3, "three bubble cells: \(line)")
      }
      #expect(
        all.contains { $0.split(separator: " ").last?.contains { "xyz".contains($0) } == true })
      try stop(daemon)
    }
  }

  // MARK: - a client's explicit bar count

  /// A client whose explicit `bars=7` no longer lays out after a switch to stereo gets an
  /// `error:` line and is closed (never silence); a new `bars=7` client is refused the same
  /// way, and a client that asked nothing goes on.
  @Test func anExplicitBarCountThatNoLongerFitsIsRefusedAfterAReload() throws {
    try withFixture(config: "[general]\nbars = 8\nchannels = mono\n") { directory, audio, config in
      let daemon = try TestDaemon(
        audio: audio, socketPath: directory + "/s.sock", extra: ["--config", config])
      let seven = try SocketTestClient(path: daemon.socketPath, send: "format=raw bars=7\n")
      let quiet = try SocketTestClient(path: daemon.socketPath, send: "format=raw\n")
      #expect(seven.readLine()?.split(separator: ";").count == 7)
      #expect(quiet.readLine()?.split(separator: ";").count == 8)

      try writeTextFile(config, "[general]\nbars = 8\nchannels = stereo\n")
      daemon.process.send(SIGHUP)
      let (lines, closed) = seven.readUntilClosed(timeout: 5)
      #expect(closed, "the bars=7 client was neither served nor closed")
      #expect(lines.last == "error: bars must be even in stereo (got 7)", "\(lines.suffix(2))")
      let late = try SocketTestClient(path: daemon.socketPath, send: "bars=7\n")
      #expect(late.readUntilClosed().lines == ["error: bars must be even in stereo (got 7)"])
      while quiet.readLine(timeout: 0.01) != nil {}
      #expect(quiet.readLine()?.split(separator: ";").count == 8, "the others go on")
      #expect(try daemon.terminate() == 0)
    }
  }
}

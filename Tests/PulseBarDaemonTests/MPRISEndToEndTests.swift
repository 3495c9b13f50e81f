import Glibc
import PulseBarCore
import PulseBarSystem
import PulseBarTestSupport
import Testing

/// The real `pulsebar run --input pulse` with a private session bus and a real MPRIS player:
/// mpv with the mpv-mpris plugin plays tagged files into a private PulseAudio.
@Suite("MPRIS players, end to end", .serialized)
struct MPRISEndToEndTests {
  typealias Frame = PulseEndToEndTests.Frame

  /// A private audio server and session bus, the daemon on them (json on stdout, and a socket),
  /// and two tagged tracks.
  final class Desktop {
    let server: PrivatePulseServer
    let bus: PrivateSessionBus
    let daemon: ChildProcess
    let socketPath: String
    let first: String
    let second: String
    private var players: [ChildProcess] = []

    init() throws {
      server = try PrivatePulseServer()
      bus = try PrivateSessionBus(directory: server.directory)
      first = try MPRISFixtures.taggedTrack(
        in: server.directory, "first", title: "First Song", hertz: 440)
      second = try MPRISFixtures.taggedTrack(
        in: server.directory, "second", title: "Second Song", hertz: 660)
      socketPath = server.directory + "/pulsebar.sock"
      try #require(access(Binary.path, X_OK) == 0, "build pulsebar first: \(Binary.path)")
      daemon = try ChildProcess(
        Binary.path,
        ["run", "--input", "pulse", "--format", "json", "--bars", "8", "--socket", socketPath],
        environment: server.environment)
      try #require(daemon.readLine(timeout: 10) != nil, "no first frame: \(daemon.standardError)")
      // Past the idle null sink's 2 s render-ahead (as PulseEndToEndTests).
      _ = daemon.readLines(for: 2.2)
    }

    deinit { MPRISEndToEndTests.stop(players: players, daemon: daemon, bus: bus, server: server) }

    /// Starts mpv on `files` with MPRIS, playing or paused.
    func play(_ files: [String], paused: Bool = false) throws -> ChildProcess {
      let player = try MPRISFixtures.mpv(
        files, paused: paused, environment: server.environment.merging(bus.environment) { $1 })
      players.append(player)
      return player
    }

    /// `pulsebar ctl …` against this bus; its exit status and stderr.
    func control(_ arguments: [String]) throws -> (status: Int32, error: String) {
      let result = try Binary.run(
        ["ctl"] + arguments, environment: server.environment.merging(bus.environment) { $1 },
        timeout: 10)
      return (result.status, result.error)
    }

    /// Reads frames until one satisfies `predicate`; it and the seconds it took.
    func waitForFrame(timeout: Double, where predicate: (Frame) -> Bool) -> (Frame, Double)? {
      let start = ChildProcess.now()
      guard let line = daemon.waitForLine(timeout: timeout, where: { predicate(Frame($0)) })
      else { return nil }
      return (Frame(line), ChildProcess.now() - start)
    }
  }

  /// Ends a desktop: the players killed, the daemon stopped, then the bus and the server.
  static func stop(
    players: [ChildProcess], daemon: ChildProcess, bus: PrivateSessionBus,
    server: PrivatePulseServer
  ) {
    for player in players { player.send(SIGKILL) }
    daemon.send(SIGTERM)
    _ = try? daemon.waitForExit(timeout: 5)
    bus.stop()
    server.stop()
  }

  @Test("title, artist and playing appear within 0.3 s of play; ctl pause gives paused")
  func playAndPause() throws {
    let desktop = try Desktop()
    _ = try desktop.play([desktop.first], paused: true)
    // mpv names the file before it has read the tags: the title is "first.flac" at first.
    let appeared = desktop.waitForFrame(timeout: 10) {
      $0.string("player") == "mpv" && $0.string("title") == "First Song"
    }
    #expect(appeared != nil, "mpv never appeared: \(desktop.daemon.standardError)")
    #expect(appeared?.0.string("artist") == "The Band")
    #expect(appeared?.0.string("album") == "Debut")
    #expect(desktop.waitForFrame(timeout: 5) { $0.state == "paused" } != nil, "not paused")

    let start = ChildProcess.now()
    #expect(try desktop.control(["play"]).status == 0)
    let playing = desktop.waitForFrame(timeout: 2) { frame in
      frame.state == "playing" && frame.string("title") == "First Song"
        && frame.string("artist") == "The Band"
    }
    let playingAfter = ChildProcess.now() - start
    #expect(playing != nil, "never playing")
    #expect(playingAfter <= 0.3, "playing \(playingAfter) s after ctl play")
    _ = desktop.daemon.readLines(for: 0.5)

    let pauseStart = ChildProcess.now()
    let paused = try desktop.control(["pause"])
    #expect(paused.status == 0, "\(paused.error)")
    let pausedFrame = desktop.waitForFrame(timeout: 2) { $0.state == "paused" }
    let pausedAfter = ChildProcess.now() - pauseStart
    #expect(pausedFrame != nil, "never paused")
    #expect(pausedFrame?.0.string("title") == "First Song")
    #expect(pausedAfter <= 0.3, "paused \(pausedAfter) s after ctl pause")
    print(
      "MPRIS figure: playing \(ms(playingAfter)) after ctl play, paused \(ms(pausedAfter)) after ctl pause"
    )
  }

  @Test("quitting mpv drops the player fields; ctl with none exits 1; a bus gone is one line")
  func quittingDropsThePlayer() throws {
    let desktop = try Desktop()
    let player = try desktop.play([desktop.first])
    #expect(desktop.waitForFrame(timeout: 10) { $0.string("title") == "First Song" } != nil)
    player.send(SIGTERM)
    let gone = desktop.waitForFrame(timeout: 3) { $0.field("player") == nil }
    #expect(gone != nil, "the player fields stayed")
    #expect(gone.map { $0.0.field("title") == nil && $0.0.field("artist") == nil } == true)
    let none = try desktop.control(["play-pause"])
    #expect(none.status == 1)
    #expect(none.error == "pulsebar: no MPRIS player on the session bus\n")
    // The bus itself goes away: one line, and the daemon carries on.
    _ = try desktop.play([desktop.first])
    #expect(desktop.waitForFrame(timeout: 10) { $0.string("title") == "First Song" } != nil)
    desktop.bus.stop()
    #expect(desktop.waitForFrame(timeout: 3) { $0.field("player") == nil } != nil)
    usleep(200_000)
    let log = desktop.daemon.standardError.split(separator: "\n")
    #expect(log.filter { $0.contains("no longer followed") }.count == 1, "\(log)")
    #expect(desktop.daemon.isRunning)
  }

  @Test("a second player that starts playing becomes the active one; paused, it hands back")
  func secondPlayerTakesOver() throws {
    let desktop = try Desktop()
    _ = try desktop.play([desktop.first])
    #expect(
      desktop.waitForFrame(timeout: 10) {
        $0.state == "playing" && $0.string("title") == "First Song"
      } != nil)
    _ = try desktop.play([desktop.second])
    let second = desktop.waitForFrame(timeout: 10) { $0.string("title") == "Second Song" }
    #expect(second != nil, "the second player never took over")
    #expect(second?.0.string("player")?.hasPrefix("mpv.instance") == true)
    // ctl pauses the active player (the second); the first still plays and is active again.
    #expect(try desktop.control(["pause"]).status == 0)
    let back = desktop.waitForFrame(timeout: 3) {
      $0.string("title") == "First Song" && $0.state == "playing"
    }
    #expect(back != nil, "the first player did not become active again")
    #expect(try desktop.control(["pause", "--player", "mpv"]).status == 0)
    #expect(desktop.waitForFrame(timeout: 3) { $0.state == "paused" } != nil)
  }

  @Test("a paused player does not hide another program's sound, nor take credit for it")
  func pausedPlayerDoesNotHideOthers() throws {
    let desktop = try Desktop()
    _ = try desktop.play([desktop.first], paused: true)
    #expect(
      desktop.waitForFrame(timeout: 10) {
        $0.state == "paused" && $0.string("title") == "First Song"
      } != nil)
    let tone = try desktop.server.play(tone: 1000, seconds: 5)
    let playing = desktop.waitForFrame(timeout: 3) { $0.state == "playing" }
    #expect(playing != nil, "paplay's tone never showed as playing")
    #expect((playing?.1 ?? 99) < 1.2, "playing after \(playing?.1 ?? -1) s")
    // Told once: the paused player's track never sits beside the other program's sound.
    #expect(playing?.0.string("title") == nil, "the tone was credited to the paused player")
    #expect(playing?.0.string("player") == nil)
    tone.send(SIGKILL)
  }

  /// The budgets: a metadata change reaches a socket client within 50 ms of its
  /// PropertiesChanged signal on the bus (timestamped by dbus-monitor); while nothing changes the
  /// players' thread never wakes.
  @Test("a track change reaches a socket client within 50 ms; no wake-ups while idle")
  func latencyAndIdleWakeups() throws {
    let desktop = try Desktop()
    let monitor = try SignalMonitor(address: desktop.bus.address)
    let client = try SocketTestClient(path: desktop.socketPath, send: "format=json\n")
    _ = try desktop.play([desktop.first, desktop.second, desktop.first, desktop.second])
    #expect(client.waitFor(timeout: 10) { $0.string("title") == "First Song" } != nil)
    var latencies: [Double] = []
    for (round, title) in ["Second Song", "First Song", "Second Song"].enumerated() {
      #expect(try desktop.control(["next"]).status == 0, "round \(round)")
      guard let arrival = client.waitFor(timeout: 5, where: { $0.string("title") == title })
      else {
        Issue.record("round \(round): \(title) never reached the client")
        continue
      }
      guard let sent = monitor.timeOfSignal(containing: title) else {
        Issue.record("round \(round): no PropertiesChanged with \(title) on the bus")
        continue
      }
      latencies.append(arrival.realtime - sent)
    }
    #expect(!latencies.isEmpty && latencies.allSatisfy { $0 <= 0.05 }, "latencies \(latencies)")

    // Idle: the player paused, the picture settled; then nothing wakes the players' thread.
    #expect(try desktop.control(["pause"]).status == 0)
    let settled = desktop.waitForFrame(timeout: 10) { frame in
      frame.state == "paused" && frame.line.contains("\"bubbles\":[]")
        && frame.field("morph") == "0.000"
    }
    #expect(settled != nil, "never settled")
    _ = desktop.daemon.readLines(for: 0.5)
    let before = MPRISFixtures.wakeups(of: desktop.daemon.pid)
    let lines = desktop.daemon.readLines(for: 3)
    let after = MPRISFixtures.wakeups(of: desktop.daemon.pid)
    let mpris = (after["pulsebar-mpris"] ?? -1) - (before["pulsebar-mpris"] ?? 0)
    let total = after.values.reduce(0, +) - before.values.reduce(0, +)
    #expect(before["pulsebar-mpris"] != nil, "no pulsebar-mpris thread: \(before)")
    #expect(mpris == 0, "the players' thread woke \(mpris) times in 3 s")
    #expect(lines.isEmpty, "\(lines.count) lines while idle")
    print(
      "MPRIS figure: metadata → socket client \(latencies.map(ms)); idle 3 s: "
        + "players' thread \(mpris) wake-ups, whole daemon \(total)")
  }

  @Test("without a session bus: one log line, and the audio alone decides")
  func withoutABus() throws {
    // PulseAudio: a PipeWire session always has its bus (WirePlumber needs one).
    let daemon = try PulseEndToEndTests.Daemon(.pulseaudio)
    let player = try daemon.server.play(tone: 440, seconds: 5)
    PulseEndToEndTests.expectStraightToPlaying(daemon)
    player.send(SIGKILL)
    let log = daemon.process.standardError.split(separator: "\n")
    #expect(log.filter { $0.contains("session bus") }.count == 1, "\(log)")
    #expect(log.filter { $0.contains("MPRIS") }.count == 1, "\(log)")
  }
}

/// Milliseconds, for the figures.
private func ms(_ seconds: Double) -> String {
  "\(Int((seconds * 1000).rounded())) ms"
}

extension PulseEndToEndTests.Frame {
  /// A top-level string field, unescaped enough for the tests' plain titles; `nil` if absent.
  func string(_ name: String) -> String? {
    guard let range = line.firstRange(of: "\"\(name)\":\"") else { return nil }
    let rest = line[range.upperBound...]
    return String(rest[..<(rest.firstIndex(of: "\"") ?? rest.endIndex)])
  }
}

extension SocketTestClient {
  /// Reads json lines until one satisfies `predicate`; it and when it arrived (wall clock,
  /// seconds since the epoch, to compare with dbus-monitor's timestamps).
  func waitFor(timeout: Double, where predicate: (PulseEndToEndTests.Frame) -> Bool)
    -> (frame: PulseEndToEndTests.Frame, realtime: Double)?
  {
    let deadline = monotonicSeconds() + timeout
    while let line = readLine(timeout: max(0, deadline - monotonicSeconds())) {
      let now = MPRISFixtures.realtimeSeconds()
      let frame = PulseEndToEndTests.Frame(line)
      if predicate(frame) { return (frame, now) }
    }
    return nil
  }
}

import Glibc
import PulseBarDaemon
import PulseBarSystem
import PulseBarTestSupport
import Synchronization

/// The soak: the release daemon serves its socket on a private PulseAudio server for
/// `minutes` while everything that can happen to it happens, again and again:
///
/// - clients connect, subscribe, read a while and leave; stall with a wide subscription until
///   the daemon drops them; send binary data, over-long or bad lines, half lines, nothing;
/// - the audio server is killed (SIGKILL, as a crash) and restarted every 30 s;
/// - the default sink switches between two null sinks every 10 s;
/// - the config is rewritten and reloaded (SIGHUP) every 20 s.
///
/// Pink noise plays into the default sink all along (restarted after each server restart), so
/// every frame differs and the daemon sends one line per frame. One well-behaved client reads
/// raw/32 throughout. Every minute: the daemon's RSS, open descriptors and threads, and the
/// frames the reader got against fps × elapsed. At the end, the budgets: RSS grows by at most
/// 1 MB (from the one-minute mark: by then every kind of event has happened, and a burst of
/// stallers at the start has queued as many lines as the churn ever will, see
/// ``ClientChurn/fillSlots(now:)``), descriptors and threads end where they started (sampled
/// with only the reader connected), and outside the outages that server restarts and sink
/// switches force, the reader waits no more than 100 ms for a line and gets at least 98 % of
/// the better of two quiet 10 s rates, at the start and at the end (the engine analyses a
/// late burst of audio as one frame, so a loaded machine loses a few frames even then).
/// Returns whether every budget was met.
func runSoakBench(minutes: Double) -> Bool {
  guard let binary = BenchTools.pulsebarBinary() else {
    say("(pulsebar binary not built; run `swift build -c release` first)")
    return false
  }
  let server: PrivatePulseServer
  do {
    server = try PrivatePulseServer(sinks: ["pb_soak_a", "pb_soak_b"])
  } catch {
    say("(no private PulseAudio server: \(error))")
    return false
  }
  return Soak(binary: binary, server: server, seconds: minutes * 60).run()
}

/// One soak run; confined to the main thread (the reader has a thread of its own).
private final class Soak {
  /// Frames per second the daemon runs at (its config).
  static let fps = 60
  /// A silence between two lines longer than this is an outage (6 frames at 60 fps).
  static let gapSeconds = 0.1
  /// How long after a server restart or a sink switch an outage counts as forced by it.
  static let forcedWindow: [SoakEvent.Kind: Double] = [.serverRestart: 8, .sinkSwitch: 3]

  let binary: String
  let server: PrivatePulseServer
  let seconds: Double
  private var events: [SoakEvent] = []
  private let player: NoisePlayer
  private var sinkIndex = 0
  private var reloads = 0

  init(binary: String, server: PrivatePulseServer, seconds: Double) {
    self.binary = binary
    self.server = server
    self.seconds = seconds
    player = NoisePlayer(server: server)
  }

  private var socketPath: String { server.directory + "/pulsebar.sock" }
  private var configPath: String { server.directory + "/soak.conf" }

  /// Runs the soak and prints its figures; true when every budget is met.
  func run() -> Bool {
    writeConfig()
    player.ensureRunning()
    var environment = server.environment
    environment["XDG_CONFIG_HOME"] = server.directory
    guard
      let daemon = try? ChildProcess(
        binary, ["run", "--config", configPath, "--socket", socketPath, "--no-stdout"],
        environment: environment)
    else {
      say("(could not start \(binary))")
      return false
    }
    defer {
      daemon.send(SIGTERM)
      _ = try? daemon.waitForExit(timeout: 10)
      player.stop()
    }
    let deadline = ChildProcess.now() + 10
    while access(socketPath, F_OK) != 0 && ChildProcess.now() < deadline { usleep(10_000) }
    let reader = SoakReader(socketPath: socketPath)
    defer { reader.stop() }
    say(
      "binary: \(binary); \(fmt(seconds / 60, 1)) min; \(Self.fps) fps; server restart every "
        + "30 s, sink switch every 10 s, reload every 20 s, client churn throughout")
    // Settle with the reader alone: the start figures have nothing else connected.
    usleep(5_000_000)
    let quietAtStart = quietRate(reader)
    guard daemon.isRunning, let start = DaemonFigures(pid: daemon.pid) else {
      say("(the daemon did not start: \(daemon.standardError))")
      return false
    }
    say(
      "start (reader only): RSS \(fmt(start.rssMB, 2)) MB, \(start.descriptors) fds, "
        + "\(start.threads) threads; the reader gets \(fmt(quietAtStart, 1)) frames/s")
    say(
      pad("min", 5) + pad("RSS MB", 9) + pad("fds", 5) + pad("threads", 9)
        + pad("frames got/expected", 21) + pad("missed", 8) + pad("in outages", 12)
        + "clients (errors answered / hostile)")

    let churn = ClientChurn(socketPath: socketPath)
    let began = ChildProcess.now()
    churn.fillSlots(now: began)
    let readerStart = reader.snapshot()
    var lastReport = (time: began, lines: readerStart.lines)
    var oneMinute: DaemonFigures?
    var previousSecond = 0
    while previousSecond < Int(seconds) {
      usleep(50_000)
      _ = daemon.standardError  // drained, so the daemon never blocks on a full stderr pipe
      guard daemon.isRunning else { break }
      churn.step(now: ChildProcess.now())
      player.ensureRunning()
      let second = Int(ChildProcess.now() - began)
      guard second != previousSecond else { continue }
      previousSecond = second
      // Offsets keep the three kinds of event apart, so each outage has one cause.
      if second % 30 == 25 { restartServer() }
      if second % 10 == 0 { switchSink() }
      if second % 20 == 7 { reload(daemon) }
      if second % 60 == 0, let figures = DaemonFigures(pid: daemon.pid) {
        let now = ChildProcess.now()
        let snapshot = reader.snapshot()
        let got = snapshot.lines - lastReport.lines
        let expected = Int((now - lastReport.time) * Double(Self.fps))
        let forced = forcedFrames(snapshot.gaps, from: lastReport.time, to: now)
        say(
          pad(String(second / 60), 5) + pad(fmt(figures.rssMB, 2), 9)
            + pad(String(figures.descriptors), 5) + pad(String(figures.threads), 9)
            + pad("\(got)/\(expected)", 21) + pad(String(max(0, expected - got)), 8)
            + pad(String(forced), 12)
            + "\(churn.connections) (\(churn.errorsAnswered)/\(churn.hostileSent))")
        lastReport = (now, snapshot.lines)
        if oneMinute == nil { oneMinute = figures }
      }
    }
    let ended = ChildProcess.now()
    guard daemon.isRunning else {
      let status = (try? daemon.waitForExit(timeout: 0)) ?? -1
      say("FAIL  the daemon exited with status \(status): \(daemon.standardError)")
      return false
    }
    // The end figures, as the start ones: the reader alone, the server up, audio flowing.
    churn.closeAll()
    let settle = ChildProcess.now() + 15
    repeat {
      usleep(500_000)
    } while ChildProcess.now() < settle
      && ChildProcess.now() - reader.snapshot().lastLine > 0.5
    let final = reader.snapshot()
    let quietAtEnd = quietRate(reader)
    guard let end = DaemonFigures(pid: daemon.pid) else { return false }
    say(
      "end (reader only): RSS \(fmt(end.rssMB, 2)) MB, \(end.descriptors) fds, "
        + "\(end.threads) threads; the reader gets \(fmt(quietAtEnd, 1)) frames/s")
    return report(
      start: start, oneMinute: oneMinute, end: end, reader: final, readerStart: readerStart,
      began: began, ended: ended, quietRate: max(quietAtStart, quietAtEnd), churn: churn,
      log: daemon.standardError)
  }

  /// The frames per second the reader gets over 10 s with nothing else going on: the
  /// machine's own rate (the engine analyses a late burst of audio as one frame, so a loaded
  /// machine loses some frames whatever the daemon does).
  private func quietRate(_ reader: SoakReader) -> Double {
    let start = (time: ChildProcess.now(), lines: reader.snapshot().lines)
    usleep(10_000_000)
    return Double(reader.snapshot().lines - start.lines) / (ChildProcess.now() - start.time)
  }

  // MARK: - Events

  private func restartServer() {
    events.append(SoakEvent(kind: .serverRestart, time: ChildProcess.now()))
    player.stop()
    do {
      try server.restart()
    } catch {
      say("(server restart failed: \(error))")
    }
    sinkIndex = 0  // the server's script makes the first sink the default again
    player.ensureRunning()
  }

  private func switchSink() {
    events.append(SoakEvent(kind: .sinkSwitch, time: ChildProcess.now()))
    sinkIndex = 1 - sinkIndex
    try? server.setDefaultSink(server.sinks[sinkIndex])
  }

  private func reload(_ daemon: ChildProcess) {
    reloads += 1
    writeConfig()
    daemon.send(SIGHUP)
  }

  /// The daemon's config; each write differs from the last (smoothing, bubbles, and a
  /// restart-only key so that every reload shows in the daemon's log).
  private func writeConfig() {
    let odd = reloads % 2 == 1
    let text = """
      [general]
      bars = 32
      fps = \(Self.fps)
      channels = stereo
      format = raw
      [analysis]
      noise_reduction = \(odd ? "0.7" : "0.77")
      [socket]
      max_clients = \(odd ? 63 : 64)
      [bubbles]
      max = \(odd ? 3 : 6)

      """
    let descriptor = open(configPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    _ = text.utf8CString.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count - 1) }
    close(descriptor)
  }

  // MARK: - Figures

  /// Frames lost in outages that began after `from` and that a restart or switch forced.
  private func forcedFrames(_ gaps: [SoakGap], from: Double, to: Double) -> Int {
    gaps.filter { $0.end > from && $0.end <= to && isForced($0) }.map(\.missedFrames).reduce(0, +)
  }

  private func isForced(_ gap: SoakGap) -> Bool {
    events.contains { event in
      let window = Self.forcedWindow[event.kind] ?? 0
      return gap.start <= event.time + window && gap.end >= event.time
    }
  }

  private func report(
    start: DaemonFigures, oneMinute: DaemonFigures?, end: DaemonFigures,
    reader: SoakReader.Snapshot, readerStart: SoakReader.Snapshot, began: Double, ended: Double,
    quietRate: Double, churn: ClientChurn, log: String
  ) -> Bool {
    let restarts = events.filter { $0.kind == .serverRestart }.count
    let switches = events.filter { $0.kind == .sinkSwitch }.count
    let logLines = log.split(separator: "\n")
    let reloadsLogged = logLines.filter { $0.contains("config reloaded") }.count
    let stuckDropped = logLines.filter { $0.contains("made no progress") }.count
    say(
      "events: \(restarts) server restarts, \(switches) sink switches, \(reloads) reloads "
        + "(\(reloadsLogged) of the \((reloads + 1) / 2) that changed a restart-only key logged)")
    say(
      "clients: \(churn.connections) connections, \(churn.hostileSent) hostile "
        + "(\(churn.errorsAnswered) answered with an error line), \(churn.stalled) stalled "
        + "(\(stuckDropped) dropped as stuck), \(churn.connectFailures) connects refused; "
        + "reader reconnects: \(reader.reconnects)")
    // Frames over the churn period, from the first line the reader got in it.
    let lines = reader.lines - readerStart.lines
    let expected = Int((ended - began) * Double(Self.fps))
    let missed = max(0, expected - lines)
    let inPeriod = reader.gaps.filter { $0.end > began && $0.start < ended }
    let forcedGaps = inPeriod.filter(isForced)
    let forced = forcedGaps.map(\.missedFrames).reduce(0, +)
    let unforcedGaps = inPeriod.filter { !isForced($0) }
    let longestForced = forcedGaps.map { $0.end - $0.start }.max() ?? 0
    say(
      "reader: \(lines) frames of \(expected) expected; \(missed) missed, \(forced) of them in "
        + "\(forcedGaps.count) outages after restarts and switches (longest "
        + "\(fmt(longestForced, 2)) s); \(unforcedGaps.count) other gaps over "
        + "\(fmt(Soak.gapSeconds, 1)) s"
        + unforcedGaps.prefix(5).map {
          " [\(fmt($0.start - began, 1)) s +\(fmt($0.end - $0.start, 2))]"
        }
        .joined())
    let growth = end.rssMB - (oneMinute ?? start).rssMB
    var verdicts: [Bool] = []
    verdicts.append(
      verdict(
        "RSS grows by at most 1 MB", growth <= 1,
        "\(fmt(growth, 2)) MB from the \(oneMinute == nil ? "start" : "one-minute mark") "
          + "(\(fmt((oneMinute ?? start).rssMB, 2)) → \(fmt(end.rssMB, 2)) MB; "
          + "\(fmt(end.rssMB - start.rssMB, 2)) MB from the start)"))
    verdicts.append(
      verdict(
        "fd count ends where it started", end.descriptors == start.descriptors,
        "\(start.descriptors) → \(end.descriptors)"))
    verdicts.append(
      verdict(
        "thread count ends where it started", end.threads == start.threads,
        "\(start.threads) → \(end.threads)"))
    // Outside the outages restarts and switches force, the reader keeps the better of the two
    // quiet rates (2 % tolerance, as the socket bench's stalled-client budget) and never
    // waits over 100 ms.
    let outageSeconds = forcedGaps.map { $0.end - $0.start }.reduce(0, +)
    let outsideRate = Double(lines) / max(1, ended - began - outageSeconds)
    verdicts.append(
      verdict(
        "the reader misses no more than the restarts force",
        unforcedGaps.isEmpty && outsideRate >= 0.98 * quietRate,
        "outside the outages (\(fmt(outageSeconds, 1)) s in all) it got "
          + "\(fmt(outsideRate, 1)) frames/s, \(fmt(outsideRate / quietRate * 100, 1)) % of "
          + "its quiet rate; \(unforcedGaps.count) other gaps"))
    let problems = logLines.filter { $0.contains("error") || $0.contains("panic") }
    if !problems.isEmpty {
      say("daemon log: \(problems.count) error lines, e.g. \(problems.prefix(3))")
    }
    return !verdicts.contains(false)
  }
}

/// Something the soak did to the daemon's world.
private struct SoakEvent {
  /// What was done.
  enum Kind: Hashable {
    case serverRestart
    case sinkSwitch
  }

  var kind: Kind
  /// When it began (monotonic seconds).
  var time: Double
}

/// A silence between two lines the reader got.
private struct SoakGap: Sendable {
  var start: Double
  var end: Double
  /// Frames that fit in the silence beyond the one that ended it.
  var missedFrames: Int { max(0, Int(((end - start) * Double(Soak.fps)).rounded()) - 1) }
}

/// The daemon's resident memory, open descriptors and threads, from /proc.
private struct DaemonFigures {
  var rssMB: Double
  var descriptors: Int
  var threads: Int

  init?(pid: pid_t) {
    guard let rss = ProcessFigures.statusValue(pid, "VmRSS"),
      let threads = ProcessFigures.statusValue(pid, "Threads"),
      let descriptors = ProcessFigures.descriptorCount(pid)
    else { return nil }
    rssMB = Double(rss) / 1024
    self.descriptors = descriptors
    self.threads = threads
  }
}

/// Endless pink noise into the server's default sink: `sox` synthesizes, `pacat` plays (and
/// paces it). Both die with the server; ``ensureRunning()`` starts them again.
private final class NoisePlayer {
  private let server: PrivatePulseServer
  private var process: ChildProcess?

  init(server: PrivatePulseServer) { self.server = server }

  /// Starts the player if it is not running.
  func ensureRunning() {
    if process?.isRunning == true { return }
    process = nil
    let command =
      "sox -q -n -r 44100 -c 2 -b 16 -e signed -t raw - synth 86400 pinknoise vol 0.5 "
      + "| pacat --raw --format=s16le --rate=44100 --channels=2"
    process = try? ChildProcess("sh", ["-c", command], environment: server.environment)
  }

  /// Stops both processes (their process group) and waits.
  func stop() {
    guard let process else { return }
    kill(-process.pid, SIGTERM)
    _ = try? process.waitForExit(timeout: 5)
    self.process = nil
  }
}

/// The well-behaved client: raw/32 from start to end, read on a thread of its own as a
/// status bar would; counts lines and notes every silence longer than ``Soak/gapSeconds``.
private final class SoakReader: Sendable {
  /// What the reader has seen.
  struct Snapshot: Sendable {
    var lines = 0
    var gaps: [SoakGap] = []
    /// When the last line arrived (monotonic seconds).
    var lastLine: Double = 0
    /// Times the daemon closed the reader's connection (it never should).
    var reconnects = 0
  }

  private let state = Mutex(Snapshot())
  private let stopping = Atomic<Bool>(false)
  private let thread = Mutex<PosixThread?>(nil)

  init(socketPath: String) {
    thread.withLock { $0 = PosixThread.spawn { [self] in self.run(socketPath) } }
  }

  func snapshot() -> Snapshot { state.withLock { $0 } }

  /// Stops reading and waits for the thread.
  func stop() {
    stopping.store(true, ordering: .releasing)
    thread.withLock { $0.take() }?.join()
  }

  private func run(_ socketPath: String) {
    var buffer = [UInt8](repeating: 0, count: 65536)
    var client: FileDescriptor?
    defer { client?.closeQuietly() }
    while !stopping.load(ordering: .acquiring) {
      guard let connected = client ?? Self.connect(socketPath) else {
        usleep(100_000)
        continue
      }
      client = connected
      var entry = pollfd(fd: connected.rawValue, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, 100) > 0 else { continue }
      let count = read(connected.rawValue, &buffer, buffer.count)
      if count <= 0 {
        if count < 0 && errno == EINTR { continue }
        connected.closeQuietly()
        client = nil
        state.withLock { $0.reconnects += 1 }
        continue
      }
      var newlines = 0
      for byte in buffer[..<count] where byte == UInt8(ascii: "\n") { newlines += 1 }
      guard newlines > 0 else { continue }
      let now = ChildProcess.now()
      state.withLock { state in
        if state.lastLine > 0 && now - state.lastLine > Soak.gapSeconds {
          state.gaps.append(SoakGap(start: state.lastLine, end: now))
        }
        state.lastLine = now
        state.lines += newlines
      }
    }
  }

  private static func connect(_ socketPath: String) -> FileDescriptor? {
    guard let client = try? UnixSocket.connect(path: socketPath) else { return nil }
    guard (try? client.writeAll("format=raw bars=32\n")) != nil else {
      client.closeQuietly()
      return nil
    }
    return client
  }
}

/// Clients that come and go around the reader, a new one every 100 ms or so: polite ones
/// that read a while, silent ones (the default subscription), half-closers, stallers with a
/// wide subscription that never read, hostile ones (binary data, an over-long line, bad keys
/// and values, a line left unfinished past 100 ms) and ones that hang up at once.
/// Confined to the main thread; at most ``maximum`` at a time, below the daemon's 63.
private final class ClientChurn {
  private enum Kind: CaseIterable {
    case polite, silent, halfClose, staller, hostile, abrupt
  }

  private struct Client {
    var descriptor: FileDescriptor
    var kind: Kind
    var leaveAt: Double
    var answered = false
  }

  static let maximum = 40
  private let socketPath: String
  private var clients: [Client] = []
  private var random: UInt64 = 0x5eed
  private var nextArrival = 0.0
  private var buffer = [UInt8](repeating: 0, count: 65536)
  private(set) var connections = 0
  private(set) var hostileSent = 0
  private(set) var errorsAnswered = 0
  private(set) var stalled = 0
  private(set) var connectFailures = 0

  init(socketPath: String) { self.socketPath = socketPath }

  /// Reads what the clients got, lets those whose time is up leave, and maybe adds one.
  func step(now: Double) {
    for index in clients.indices.reversed() {
      if clients[index].kind != .staller { drain(&clients[index]) }
      if now >= clients[index].leaveAt {
        clients[index].descriptor.closeQuietly()
        clients.remove(at: index)
      }
    }
    guard now >= nextArrival, clients.count < Self.maximum else { return }
    nextArrival = now + 0.05 + Double(next() % 100) / 1000
    arrive(now: now)
  }

  /// Every client leaves.
  func closeAll() {
    for client in clients { client.descriptor.closeQuietly() }
    clients.removeAll()
  }

  /// Connects ``maximum`` stallers at once (they are dropped as stuck a few seconds later):
  /// the most lines the churn ever makes the daemon queue (two rings of 64 wide lines per
  /// client), so the heap reaches its high-water mark in the first minute.
  func fillSlots(now: Double) {
    while clients.count < Self.maximum && connectFailures < 10 { arrive(now: now, .staller) }
  }

  private func arrive(now: Double, _ chosen: Kind? = nil) {
    let kind = chosen ?? Kind.allCases[Int(next() % UInt64(Kind.allCases.count))]
    guard let descriptor = try? UnixSocket.connect(path: socketPath) else {
      connectFailures += 1
      return
    }
    _ = try? descriptor.setNonBlocking()
    connections += 1
    var stay = 0.5 + Double(next() % 3000) / 1000
    switch kind {
    case .polite:
      let format = ["text", "waybar", "json", "raw"][Int(next() % 4)]
      send(descriptor, "format=\(format) bars=\(1 + next() % 64)\n")
    case .silent:
      break
    case .halfClose:
      send(descriptor, "bars=\(2 * (1 + next() % 16))")
      descriptor.shutdownWrite()
    case .staller:
      // ~2.8 kB a line: the socket buffers fill within seconds, then the 5 s stuck timeout
      // runs. (400, not 512: older band layouts refused 256 bars per channel at these cutoffs.)
      send(descriptor, "format=json bars=400\n")
      stalled += 1
      stay = 10 + Double(next() % 8000) / 1000
    case .hostile:
      hostileSent += 1
      send(descriptor, hostileBytes())
    case .abrupt:
      if next() % 2 == 0 { send(descriptor, "format=js") }
      stay = 0
    }
    clients.append(Client(descriptor: descriptor, kind: kind, leaveAt: now + stay))
  }

  /// One kind of bad subscription line (each answered with `error: …` and a close).
  private func hostileBytes() -> [UInt8] {
    switch next() % 5 {
    case 0: return (0..<(1 + next() % 200)).map { _ in UInt8(truncatingIfNeeded: next()) | 0x80 }
    case 1: return Array(repeating: UInt8(ascii: "x"), count: 300) + [10]
    case 2: return Array("format=pango bars=8\n".utf8)
    case 3: return Array("bars=\(next() % 2 == 0 ? "0" : "99999999999999999999")\n".utf8)
    default: return Array("format=json bars".utf8)  // unfinished: refused after 100 ms
    }
  }

  private func drain(_ client: inout Client) {
    while true {
      let count = read(client.descriptor.rawValue, &buffer, buffer.count)
      guard count > 0 else { return }
      if client.kind == .hostile && !client.answered
        && buffer[..<count].starts(with: "error: ".utf8)
      {
        client.answered = true
        errorsAnswered += 1
      }
    }
  }

  private func send(_ descriptor: FileDescriptor, _ text: String) {
    send(descriptor, Array(text.utf8))
  }

  private func send(_ descriptor: FileDescriptor, _ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { try? descriptor.writeAll($0) }
  }

  /// A 64-bit LCG: the same churn every run.
  private func next() -> UInt64 {
    random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return random >> 33
  }
}

/// Prints `text` and flushes: each minute's figures show as they come, even in a file.
private func say(_ text: String) {
  print(text)
  fflush(nil)
}

import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarDaemon
import PulseBarSystem
import PulseBarTestSupport
import Synchronization

/// The socket bench: daemon CPU with 1, 10 and 50 socket clients reading, beside the same
/// number of `cava` processes (the one-cava-per-bar-module setup pulsebar replaces), all on the
/// same music played into one private PulseAudio null sink, at cava's settings (32 bars,
/// stereo, 60 fps, raw ASCII). Then 10 readers with and without one client that never reads.
///
/// CPU comes from `/proc/PID/task/*/schedstat` (nanoseconds on CPU), so a few seconds of a
/// process using 1 % of a core still measure to a useful precision. Wake-ups are the
/// daemon's voluntary context switches (`/proc/PID/status` for the engine's thread, and
/// summed over every thread) over the same window, per frame a reader received.
func runSocketBench() {
  guard let binary = BenchTools.pulsebarBinary() else {
    print("(pulsebar binary not built; run `swift build -c release` first)")
    return
  }
  let server: PrivatePulseServer
  do {
    server = try PrivatePulseServer(sinks: ["pb_bench"])
  } catch {
    print("(no private PulseAudio server: \(error))")
    return
  }
  // Stationary audio (pink noise under a slow sweep): every setup sees the same kind of signal,
  // so frame rates and CPU differ by the clients alone, not by a quiet passage of a song.
  let track = server.directory + "/noise.wav"
  guard
    BenchTools.shell(
      "sox -n -r 44100 -c 2 -b 16 \(track) synth 240 pinknoise sine 100-5000 vol 0.5"),
    let player = try? server.play(file: track)
  else {
    print("(could not make or play the bench audio with sox and paplay)")
    return
  }
  defer { player.send(SIGTERM) }
  let bench = SocketBenchRun(binary: binary, server: server)
  print(
    "binary: \(binary); \(fmt(SocketBenchRun.measureSeconds, 0)) s per figure after "
      + "\(fmt(SocketBenchRun.warmUpSeconds, 0)) s warm-up; cava runs after all pulsebar runs")
  // A first run, not shown: PulseAudio settles its latencies and the caches warm up.
  _ = bench.pulsebar(readers: 1)
  let counts = [1, 10, 50]
  let figures = counts.map { bench.pulsebar(readers: $0) }
  // The stall pair: one extra wide client (json, 512 bars, so its socket buffer fills within a
  // second) that reads, then one that never reads. Measured before the 5 s stuck timeout.
  // Three interleaved pairs, averaged. These read the track file (paced like live audio), not
  // the PulseAudio monitor: how PulseAudio schedules its fragments moves the daemon's CPU by
  // more than a client costs, and this figure is about the socket alone.
  let wide = Subscription(format: .json, bars: 512)
  var readingRuns: [SocketFigure] = []
  var stalledRuns: [SocketFigure] = []
  for _ in 0..<3 {
    if let figure = bench.pulsebar(
      readers: 10, extra: wide, extraReads: true, short: true, input: "file:" + track)
    {
      readingRuns.append(figure)
    }
    if let figure = bench.pulsebar(
      readers: 10, extra: wide, extraReads: false, short: true, input: "file:" + track)
    {
      stalledRuns.append(figure)
    }
  }
  let reading = SocketFigure.mean(readingRuns)
  let stalled = SocketFigure.mean(stalledRuns)
  let listened = counts.map { bench.pulsebarWithListeners(count: $0) }
  let cavas = counts.map { bench.cava(count: $0) }
  print("switches/frame: voluntary context switches per frame, the engine's thread (all threads)")
  print(
    pad("setup", 40) + pad("pulsebar CPU", 14) + pad("frames/s/reader", 17)
      + pad("switches/frame", 16) + "N × cava CPU")
  func row(_ name: String, _ figure: SocketFigure?, _ cava: Double?) {
    guard let figure else { return print(pad(name, 40) + "(pulsebar run failed)") }
    print(
      pad(name, 40) + pad(fmt(figure.cpuPercent, 2) + " %", 14)
        + pad(fmt(figure.framesPerSecond, 1), 17)
        + pad(
          fmt(figure.engineSwitchesPerFrame, 2) + " (" + fmt(figure.switchesPerFrame, 2) + ")",
          16) + (cava.map { fmt($0, 2) + " %" } ?? "-"))
  }
  for (index, count) in counts.enumerated() {
    row("\(count) client\(count == 1 ? "" : "s")", figures[index], cavas[index])
  }
  for (index, count) in counts.enumerated() {
    guard let figure = listened[index] else { continue }
    print(
      pad("\(count) × `pulsebar listen`", 40) + pad(fmt(figure.daemon, 2) + " %", 14)
        + pad("+ \(fmt(figure.listeners, 2)) % listen", 17)
        + (cavas[index].map { fmt($0, 2) + " %" } ?? "-"))
  }
  row("10 + 1 reading json/512 (file, ×3)", reading, nil)
  row("10 + 1 stalled json/512 (file, ×3)", stalled, nil)
  guard let one = figures[0], let ten = figures[1], let fifty = figures[2], let reading,
    let stalled
  else { return }
  // The 10-client budgets side by side, from the same run.
  verdict(
    "10 clients at 60 fps: ≤ 1.1 voluntary context switches per frame",
    ten.switchesPerFrame <= 1.1,
    "\(fmt(ten.switchesPerFrame, 2)) a frame (the engine's thread \(fmt(ten.engineSwitchesPerFrame, 2))"
      + "; one client: \(fmt(one.switchesPerFrame, 2)))")
  verdict(
    "10 clients ≤ 1.1 × the CPU of one", ten.cpuPercent <= 1.1 * one.cpuPercent,
    "\(fmt(ten.cpuPercent, 2)) % against \(fmt(one.cpuPercent, 2)) %: "
      + "\(fmt(ten.cpuPercent / one.cpuPercent, 2)) ×")
  verdict(
    "50 clients ≤ 2 × the CPU of one", fifty.cpuPercent <= 2 * one.cpuPercent,
    "\(fmt(fifty.cpuPercent / one.cpuPercent, 2)) ×")
  // "Costs the others nothing": the readers' frame rate. The daemon's own CPU while one client
  // is stalled is shown beside it (a stalled client's full socket is not free for the kernel).
  let rateRatio = stalled.framesPerSecond / reading.framesPerSecond
  let cpuRatio = stalled.cpuPercent / reading.cpuPercent
  verdict(
    "a stalled client costs the others nothing measurable", rateRatio >= 0.98,
    "the 10 readers get \(fmt(rateRatio * 100, 1)) % of their frame rate; daemon CPU "
      + "\(fmt(cpuRatio, 2)) × that of the same clients all reading")
}

/// Prints `PASS` or `FAIL`, the budget and the measured detail; returns `met`.
@discardableResult
func verdict(_ budget: String, _ met: Bool, _ detail: String) -> Bool {
  print("\(met ? "PASS" : "FAIL")  \(budget): \(detail)")
  return met
}

/// One measured pulsebar configuration.
struct SocketFigure {
  var cpuPercent: Double
  var framesPerSecond: Double
  /// The daemon's voluntary context switches per frame, summed over its threads.
  var switchesPerFrame: Double
  /// The same, of the engine's thread alone (`/proc/PID/status`).
  var engineSwitchesPerFrame: Double

  /// The mean of `runs`; `nil` when there are none.
  static func mean(_ runs: [SocketFigure]) -> SocketFigure? {
    guard !runs.isEmpty else { return nil }
    let count = Double(runs.count)
    return SocketFigure(
      cpuPercent: runs.map(\.cpuPercent).reduce(0, +) / count,
      framesPerSecond: runs.map(\.framesPerSecond).reduce(0, +) / count,
      switchesPerFrame: runs.map(\.switchesPerFrame).reduce(0, +) / count,
      engineSwitchesPerFrame: runs.map(\.engineSwitchesPerFrame).reduce(0, +) / count)
  }
}

/// Runs pulsebar and cava against one private PulseAudio server's default sink monitor.
struct SocketBenchRun {
  static let warmUpSeconds = 2.0
  static let measureSeconds = 8.0

  let binary: String
  let server: PrivatePulseServer

  /// pulsebar with `readers` reading raw/32 clients, plus one `extra` client that reads or not;
  /// `short` measures 4 s after 1.5 s, inside the 5 s a stuck client is given.
  /// `input` is pulsebar's `--input` (the monitor of the server's default sink by default).
  func pulsebar(
    readers: Int, extra: Subscription? = nil, extraReads: Bool = true, short: Bool = false,
    input: String = "pulse"
  ) -> SocketFigure? {
    guard let daemon = startDaemon(input: input) else { return nil }
    defer { stop([daemon]) }
    var clients: [FileDescriptor] = []
    defer { for client in clients { client.closeQuietly() } }
    let raw = Subscription(format: .raw, bars: 32)
    for subscription in Array(repeating: raw, count: readers) + (extra.map { [$0] } ?? []) {
      guard let client = try? UnixSocket.connect(path: socketPath),
        (try? client.writeAll(
          Subscription.requestLine(
            format: subscription.format, bars: subscription.bars))) != nil
      else { return nil }
      clients.append(client)
    }
    // A thread per reading client, as each status bar is a process of its own (one thread
    // reading them all would batch the wake-ups the daemon pays for); only the raw readers'
    // lines are counted.
    let readingCount = extra != nil && extraReads ? readers + 1 : readers
    let counters = clients.prefix(readingCount).enumerated().map { index, client in
      LineCounter([client], counted: index < readers ? 1 : 0)
    }
    defer { for counter in counters { counter.stop() } }
    sleepSeconds(short ? 1.5 : Self.warmUpSeconds)
    let startLines = counters.map(\.total).reduce(0, +)
    let startCPU = processCPUSeconds(daemon.pid)
    let startSwitches = Self.switches(daemon.pid)
    let started = ChildProcess.now()
    sleepSeconds(short ? 4 : Self.measureSeconds)
    let elapsed = ChildProcess.now() - started
    let cpu = processCPUSeconds(daemon.pid) - startCPU
    let switches = Self.switches(daemon.pid)
    let lines = counters.map(\.total).reduce(0, +) - startLines
    // Every reader gets every frame (noise changes the bars each frame): a reader's lines are
    // the frames made.
    let frames = Double(max(1, lines)) / Double(max(1, readers))
    return SocketFigure(
      cpuPercent: cpu / elapsed * 100, framesPerSecond: frames / elapsed,
      switchesPerFrame: Double(switches.all - startSwitches.all) / frames,
      engineSwitchesPerFrame: Double(switches.engine - startSwitches.engine) / frames)
  }

  /// `pid`'s voluntary context switches: summed over its threads, and of its first thread
  /// (the engine's).
  private static func switches(_ pid: pid_t) -> (all: Int, engine: Int) {
    let all = MPRISFixtures.wakeups(of: pid).values.reduce(0, +)
    return (all, MPRISFixtures.voluntarySwitches(ofThread: pid, in: pid))
  }

  /// The daemon's CPU and the summed CPU of `count` `pulsebar listen` processes (raw, 32 bars,
  /// to /dev/null): what replacing N cava processes really costs.
  func pulsebarWithListeners(count: Int) -> (daemon: Double, listeners: Double)? {
    guard let daemon = startDaemon(input: "pulse") else { return nil }
    var listeners: [ChildProcess] = []
    defer { stop(listeners + [daemon]) }
    for _ in 0..<count {
      let command =
        "exec \(binary) listen --socket \(socketPath) --format raw --bars 32 > /dev/null"
      guard let listener = try? ChildProcess("sh", ["-c", command]) else { return nil }
      listeners.append(listener)
    }
    sleepSeconds(Self.warmUpSeconds)
    let cpu = { (processes: [ChildProcess]) in
      processes.map { processCPUSeconds($0.pid) }.reduce(0, +)
    }
    let (startDaemon, startListeners) = (cpu([daemon]), cpu(listeners))
    let started = ChildProcess.now()
    sleepSeconds(Self.measureSeconds)
    let elapsed = ChildProcess.now() - started
    return (
      (cpu([daemon]) - startDaemon) / elapsed * 100,
      (cpu(listeners) - startListeners) / elapsed * 100
    )
  }

  private var socketPath: String { server.directory + "/pulsebar.sock" }

  /// `pulsebar run` at cava's settings serving the socket; waits for the socket to appear.
  private func startDaemon(input: String) -> ChildProcess? {
    var environment = server.environment
    environment["XDG_CONFIG_HOME"] = server.directory  // defaults, whatever the user has
    guard
      let daemon = try? ChildProcess(
        binary,
        [
          "run", "--input", input, "--socket", socketPath, "--no-stdout", "--bars", "32",
          "--channels", "stereo", "--fps", "60", "--format", "raw",
        ], environment: environment)
    else { return nil }
    let deadline = ChildProcess.now() + 10
    while access(socketPath, F_OK) != 0 && ChildProcess.now() < deadline { usleep(10_000) }
    return daemon
  }

  /// SIGTERM to each, then waits for each.
  private func stop(_ processes: [ChildProcess]) {
    for process in processes { process.send(SIGTERM) }
    for process in processes { _ = try? process.waitForExit(timeout: 10) }
  }

  /// The summed CPU of `count` cava processes at cava's bench settings, in percent of a core.
  func cava(count: Int) -> Double? {
    let config = BenchTools.writeCavaConfig(
      source: "\(server.sinks[0]).monitor", directory: server.directory)
    var processes: [ChildProcess] = []
    defer { stop(processes) }
    for _ in 0..<count {
      // cava writes its frames to a pipe nobody reads: /dev/null keeps it from blocking.
      guard
        let process = try? ChildProcess(
          "sh", ["-c", "exec cava -p \(config) > /dev/null"], environment: server.environment)
      else { return nil }
      processes.append(process)
    }
    sleepSeconds(Self.warmUpSeconds)
    guard processes.allSatisfy(\.isRunning) else { return nil }
    let startCPU = processes.map { processCPUSeconds($0.pid) }.reduce(0, +)
    let started = ChildProcess.now()
    sleepSeconds(Self.measureSeconds)
    let elapsed = ChildProcess.now() - started
    let cpu = processes.map { processCPUSeconds($0.pid) }.reduce(0, +) - startCPU
    return cpu / elapsed * 100
  }
}

/// Reads the given clients on a thread of its own and counts the lines they get.
final class LineCounter: Sendable {
  private let lines = Atomic<Int>(0)
  private let stopping = Atomic<Bool>(false)
  private let thread = Lock<PosixThread?>(nil)

  /// Reads all `clients`; counts the lines of the first `counted`.
  init(_ clients: [FileDescriptor], counted: Int) {
    let descriptors = clients.map(\.rawValue)
    thread.withLock {
      $0 = PosixThread.spawn { [self] in self.run(descriptors, counted: counted) }
    }
  }

  /// Lines read so far.
  var total: Int { lines.load(ordering: .relaxed) }

  /// Stops reading and waits for the thread.
  func stop() {
    stopping.store(true, ordering: .releasing)
    thread.withLock { $0.take() }?.join()
  }

  private func run(_ descriptors: [Int32], counted: Int) {
    var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !stopping.load(ordering: .acquiring) {
      guard poll(&entries, nfds_t(entries.count), 100) > 0 else { continue }
      for index in entries.indices where entries[index].revents != 0 {
        let count = read(entries[index].fd, &buffer, buffer.count)
        if count <= 0 {
          entries[index].events = 0
          continue
        }
        guard index < counted else { continue }
        var newlines = 0
        for byte in buffer[..<count] where byte == UInt8(ascii: "\n") { newlines += 1 }
        lines.add(newlines, ordering: .relaxed)
      }
    }
  }
}

/// CPU seconds `pid` has used, summed over its live threads (`/proc/PID/task/*/schedstat`).
func processCPUSeconds(_ pid: pid_t) -> Double {
  guard let directory = opendir("/proc/\(pid)/task") else { return 0 }
  defer { closedir(directory) }
  var nanoseconds: UInt64 = 0
  while let entry = readdir(directory) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
      String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
    }
    guard name.first?.isNumber == true else { continue }
    let descriptor = open("/proc/\(pid)/task/\(name)/schedstat", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { continue }
    var bytes = [UInt8](repeating: 0, count: 128)
    let count = read(descriptor, &bytes, bytes.count)
    close(descriptor)
    guard count > 0 else { continue }
    let text = String(decoding: bytes[..<count], as: UTF8.self)
    nanoseconds += UInt64(text.split(separator: " ").first ?? "0") ?? 0
  }
  return Double(nanoseconds) / 1e9
}

private func sleepSeconds(_ seconds: Double) {
  usleep(UInt32(seconds * 1_000_000))
}

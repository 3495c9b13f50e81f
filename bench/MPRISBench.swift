import Glibc
import PulseBarSystem
import PulseBarTestSupport

/// The MPRIS bench: the daemon with a private session bus and a real player (mpv with
/// mpv-mpris) on a private PulseAudio. Two budgets:
/// - a track change reaches a socket client within 50 ms: from the PropertiesChanged signal on
///   the bus (dbus-monitor's timestamp, taken as the bus delivers it to the monitor, so the
///   bus daemon's own routing is left out) to the json line's arrival on a socket client.
///   Beside it, from `pulsebar ctl next` to that line, which adds ctl's start-up and mpv
///   loading the next file;
/// - MPRIS adds no wake-ups while nothing changes: the players' thread's voluntary context
///   switches (`/proc/PID/task/*/status`) over 5 s with the player paused and the picture still.
func runMPRISBench() {
  guard let binary = BenchTools.pulsebarWithMPRIS() else { return }
  do {
    let run = try MPRISBenchRun(binary: binary)
    try run.measure()
  } catch {
    print("(MPRIS bench failed: \(error))")
  }
}

/// Why the bench could not measure.
private struct MPRISBenchError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

/// One bench run: its servers, daemon, player and socket client.
private final class MPRISBenchRun {
  let server: PrivatePulseServer
  let bus: PrivateSessionBus
  let daemon: ChildProcess
  let player: ChildProcess
  let client: FileDescriptor
  let monitor: SignalMonitor
  private var pending: [UInt8] = []

  init(binary: String) throws {
    server = try PrivatePulseServer(sinks: ["pb_bench"])
    bus = try PrivateSessionBus(directory: server.directory)
    let environment = server.environment.merging(bus.environment) { $1 }
    let socket = server.directory + "/pulsebar.sock"
    daemon = try ChildProcess(
      binary, ["run", "--input", "pulse", "--no-stdout", "--socket", socket],
      environment: environment)
    let deadline = ChildProcess.now() + 10
    while access(socket, F_OK) != 0 && ChildProcess.now() < deadline { usleep(20_000) }
    do {
      client = try UnixSocket.connect(path: socket)
      try client.writeAll("format=json\n")
    } catch {
      throw MPRISBenchError(message: "socket: \(error)")
    }
    monitor = try SignalMonitor(address: bus.address)
    let first = try MPRISFixtures.taggedTrack(
      in: server.directory, "first", title: "First Song", hertz: 440)
    let second = try MPRISFixtures.taggedTrack(
      in: server.directory, "second", title: "Second Song", hertz: 660)
    player = try MPRISFixtures.mpv(
      Array(repeating: [first, second], count: 8).flatMap { $0 }, paused: false,
      environment: environment)
  }

  deinit {
    client.closeQuietly()
    player.send(SIGKILL)
    daemon.send(SIGTERM)
    _ = try? daemon.waitForExit(timeout: 5)
  }

  func measure() throws {
    guard lineArrival(containing: "\"title\":\"First Song\"", timeout: 10) != nil else {
      throw MPRISBenchError(message: "the player never reached the socket client")
    }
    // Ten track changes, alternating titles.
    var latencies: [Double] = []
    var clicks: [Double] = []
    for round in 0..<10 {
      let title = round % 2 == 0 ? "Second Song" : "First Song"
      let clicked = MPRISFixtures.realtimeSeconds()
      guard control("next"),
        let arrival = lineArrival(containing: "\"title\":\"\(title)\"", timeout: 5),
        let sent = monitor.timeOfSignal(containing: title)
      else { continue }
      latencies.append(arrival - sent)
      clicks.append(arrival - clicked)
      usleep(300_000)
    }
    // Idle: paused, then the picture settles (morph, bubbles); then nothing may wake.
    _ = control("pause")
    var settled = false
    let deadline = ChildProcess.now() + 10
    while !settled && ChildProcess.now() < deadline {
      settled = lineArrival(containing: "\"state\":\"paused\"", timeout: 1) != nil
    }
    while lineArrival(containing: "", timeout: 1.5) != nil {}  // until a still frame
    let seconds = 5.0
    let before = MPRISFixtures.wakeups(of: daemon.pid)
    usleep(UInt32(seconds * 1e6))
    let after = MPRISFixtures.wakeups(of: daemon.pid)
    let sorted = latencies.sorted()
    let median = sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    print(pad("figure", 56) + "value")
    print(
      pad("track change → socket client, median of \(sorted.count)", 56)
        + fmt(median * 1000, 1) + " ms")
    print(
      pad("track change → socket client, worst", 56) + fmt((sorted.last ?? .nan) * 1000, 1)
        + " ms (budget 50 ms)")
    let clicksSorted = clicks.sorted()
    if !clicksSorted.isEmpty {
      print(
        pad("`pulsebar ctl next` → socket client, median", 56)
          + fmt(clicksSorted[clicksSorted.count / 2] * 1000, 1) + " ms")
    }
    for name in after.keys.sorted() {
      let woke = (after[name] ?? 0) - (before[name] ?? 0)
      print(
        pad("idle wake-ups/s, thread \(name)", 56) + fmt(Double(woke) / seconds, 2)
          + (name == "pulsebar-mpris" ? " (budget 0)" : ""))
    }
  }

  private func control(_ action: String) -> Bool {
    guard let binary = BenchTools.pulsebarBinary(),
      let process = try? ChildProcess(
        binary, ["ctl", action], environment: server.environment.merging(bus.environment) { $1 })
    else { return false }
    return (try? process.waitForExit(timeout: 10)) == 0
  }

  /// Reads socket lines until one contains `text`; the wall-clock time it arrived.
  private func lineArrival(containing text: String, timeout: Double) -> Double? {
    let deadline = ChildProcess.now() + timeout
    while true {
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        if text.isEmpty || line.contains(text) { return MPRISFixtures.realtimeSeconds() }
      }
      let remaining = deadline - ChildProcess.now()
      guard remaining > 0,
        !client.wait(for: .readable, timeoutMilliseconds: Int32(remaining * 1000)).isEmpty
      else { return nil }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let count = chunk.withUnsafeMutableBytes { (try? client.read(into: $0)) ?? 0 }
      guard count > 0 else { return nil }
      pending += chunk[..<count]
    }
  }
}

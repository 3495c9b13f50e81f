import Glibc
import PulseBarCore
import PulseBarSystem
import PulseBarTestSupport
import Testing

@testable import PulseBarAudio

/// A private server (PulseAudio, or PipeWire through pipewire-pulse) plus a started
/// ``PulseSource`` recording into a ``CaptureBuffer``, or on PipeWire a native
/// ``PipeWireSource``, with the waits and measurements the capture tests share.
///
/// The ``PulseSource`` runs as in the daemon: its mainloop driven by a loop's wait
/// (``EngineDrivenCapture/wait(_:timeoutMilliseconds:audioWanted:)``), here on a thread of the
/// fixture's own (``SourceDriver``) instead of the engine's.
final class PulseCaptureFixture {
  let server: any PrivateAudioServer
  let buffer = CaptureBuffer(sampleRate: 44100, channels: 2, seconds: 2)
  let source: any CaptureSource
  /// The thread that drives a ``PulseSource``; `nil` for a native PipeWire source.
  private let driver: SourceDriver?
  /// The source's debug lines (what `-v` shows), in order.
  private let debugged = DebugLines()
  /// The source's log lines (what it always writes), in order.
  private let logged = DebugLines()

  /// Starts a server of `kind` (unless `startServer` is false: the source starts first) and
  /// the source: libpulse's, or with `native` libpipewire's (`kind` must be PipeWire). A kind
  /// that is not installed cancels the test case, saying why.
  init(
    _ kind: AudioServerKind, sourceName: String? = nil, startServer: Bool = true,
    native: Bool = false, suspendOnIdle: Bool = false
  ) throws {
    try kind.skipUnlessRunnable()
    server = try kind.start(suspendOnIdle: suspendOnIdle, idleSeconds: 1)
    if !startServer { server.kill() }
    let debugged = debugged
    let debug: CaptureLog = { line in debugged.lines.withLock { $0.append(line) } }
    let logged = logged
    let log: CaptureLog = { line in logged.lines.withLock { $0.append(line) } }
    if native {
      source = PipeWireSource(
        channels: 2, remote: server.directory + "/pipewire-0", log: log, debug: debug)
      source.start(into: buffer)
      driver = nil
    } else {
      let pulse = PulseSource(
        sourceName: sourceName, channels: 2, fps: 60, server: server.serverAddress, log: log,
        debug: debug)
      source = pulse
      driver = SourceDriver(pulse, into: buffer)
    }
  }

  deinit {
    stopSource()
    server.stop()
  }

  /// Tells the source to follow `player`: on its driving thread for a ``PulseSource``, as the
  /// engine does.
  func follow(player: PlayerAudioIdentity?) {
    if let driver { driver.follow(player: player) } else { source.follow(player: player) }
  }

  /// Stops the source (on its driving thread, which then ends). Idempotent.
  func stopSource() {
    if let driver { driver.stop() } else { source.stop() }
  }

  /// The debug lines so far.
  var debugLines: [String] { debugged.lines.withLock { $0 } }

  /// The log lines so far.
  var logLines: [String] { logged.lines.withLock { $0 } }

  /// Waits up to `timeout` s until `count` debug lines start with `prefix`. The lines tell of
  /// the server's reactions (a stream moved, a sink switch followed), so the wait is
  /// ``serverReaction``'s: a loaded CI machine once took over 2 s for WirePlumber to move us.
  func waitDebugLine(_ prefix: String, count: Int = 1, timeout: Double = serverReaction) -> Bool {
    let end = ChildProcess.now() + timeout
    while ChildProcess.now() < end {
      if debugLines.count(where: { $0.hasPrefix(prefix) }) >= count { return true }
      usleep(10_000)
    }
    return false
  }

  /// How long a server-side change (a stream that starts, pauses or ends, a default switch, a
  /// move, a kill) may take to show in the status. Well under 0.1 s on an idle machine; the
  /// margin is for a loaded 2-core CI machine running the whole suite, where WirePlumber alone
  /// has taken over 5 s to act on a `wpctl set-default`. What these tests check is that the
  /// change is followed, not how fast: every wait returns as soon as it is seen.
  static let serverReaction: Double = 15

  /// How long a restarted server may take to be recorded again: the retry back-off's longest
  /// step (2 s, which the wait while it was down may have reached) on top of
  /// ``serverReaction``. What the restart tests check is that recording resumes.
  static let reconnection: Double = 2 + serverReaction

  /// Polls `condition` every 10 ms; the seconds it took, or `nil` on timeout.
  @discardableResult
  func wait(_ timeout: Double, until condition: (CaptureStatus) -> Bool) -> Double? {
    let start = ChildProcess.now()
    while ChildProcess.now() - start < timeout {
      if condition(buffer.status) { return ChildProcess.now() - start }
      usleep(10_000)
    }
    return nil
  }

  /// Waits until the source records `sourceName` on a live connection.
  /// On a timeout it records what the source said meanwhile (a flaky CI run leaves a trail).
  func waitRecording(
    _ sourceName: String, timeout: Double = serverReaction,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    guard wait(timeout, until: { $0.connected && $0.sourceName == sourceName }) == nil else {
      return true
    }
    Issue.record(
      "not recording \(sourceName) after \(timeout) s: \(buffer.status); debug lines \(debugLines); log lines \(logLines)",
      sourceLocation: sourceLocation)
    return false
  }

  /// Waits until samples arrive. An idle null sink renders 2 s ahead and applies a
  /// new stream's lower latency only after that block, so the first samples on a
  /// fresh stream may take about 2 s; later ones come within a fragment.
  @discardableResult
  func waitForSamples(timeout: Double = 4) -> Bool {
    let end = ChildProcess.now() + timeout
    while ChildProcess.now() < end {
      if buffer.availableSamples > 0 { return true }
      usleep(5_000)
    }
    return false
  }

  /// Waits for samples, then collects for `seconds`.
  func collectPlaying(for seconds: Double) -> [Float] {
    #expect(waitForSamples(), "no samples within 4 s")
    return collect(for: seconds)
  }

  /// Plays a 1 kHz tone into the default sink and expects `.running`, then half a second of
  /// loud samples with the tone's frequency in them.
  func expectToneWithItsFrequency(sourceLocation: SourceLocation = #_sourceLocation) throws {
    let player = try server.play(tone: 1000, seconds: 3)
    let started = wait(Self.serverReaction) { $0.activity == .running }
    #expect(started != nil, "activity \(buffer.status.activity)", sourceLocation: sourceLocation)
    let samples = collectPlaying(for: 0.5)
    #expect(
      samples.count > 44100 / 2, "got \(samples.count) samples in 0.5 s",
      sourceLocation: sourceLocation)
    #expect(rms(samples) > 0.05, "rms \(rms(samples))", sourceLocation: sourceLocation)
    let atTone = power(at: 1000, in: samples)
    let elsewhere = power(at: 3000, in: samples)
    #expect(
      atTone > 100 * elsewhere, "1 kHz \(atTone), 3 kHz \(elsewhere)",
      sourceLocation: sourceLocation)
    player.send(SIGKILL)
  }

  /// A player on the default sink that plays, pauses (corks), resumes and ends: the activity
  /// goes running, corked (no samples), running (loud samples), none.
  func expectCorkCycle(sourceLocation: SourceLocation = #_sourceLocation) throws {
    let player = try PulseTonePlayer(server: server.serverAddress, frequency: 500)
    for (corked, wanted) in [(false, StreamActivity.running), (true, .corked), (false, .running)] {
      player.setCorked(corked)
      #expect(
        wait(Self.serverReaction) { $0.activity == wanted } != nil,
        "\(buffer.status.activity), not \(wanted)", sourceLocation: sourceLocation)
      usleep(200_000)
      let samples = corked ? collect(for: 0.5) : collectPlaying(for: 0.3)
      #expect(corked ? samples.isEmpty : rms(samples) > 0.05, sourceLocation: sourceLocation)
    }
    player.stop()
    #expect(
      wait(Self.serverReaction) { $0.activity == .none } != nil, sourceLocation: sourceLocation)
  }

  /// Plays a tone into `sink` (not the one recorded) and expects the activity to stay `.none`.
  func expectIgnoresTone(on sink: String, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    let player = try server.play(tone: 500, seconds: 5, sink: sink)
    usleep(500_000)
    #expect(buffer.status.activity == .none, sourceLocation: sourceLocation)
    player.send(SIGKILL)
    _ = try player.waitForExit(timeout: 5)
  }

  /// Plays a tone into `sink` and expects `.running` and loud samples.
  func expectHearsTone(on sink: String?, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    let player = try server.play(tone: 1000, seconds: 5, sink: sink)
    #expect(
      wait(Self.serverReaction) { $0.activity == .running } != nil,
      "\(buffer.status); debug lines \(debugLines)", sourceLocation: sourceLocation)
    #expect(
      waitForSamples(), "no samples: \(buffer.status); debug lines \(debugLines)",
      sourceLocation: sourceLocation)
    let level = rms(collect(for: 0.3))
    #expect(
      level > 0.05, "rms \(level): \(buffer.status); debug lines \(debugLines)",
      sourceLocation: sourceLocation)
    player.send(SIGKILL)
    _ = try player.waitForExit(timeout: 5)
  }

  /// Everything that arrives in `seconds` (interleaved stereo), after dropping what was buffered.
  func collect(for seconds: Double) -> [Float] {
    buffer.discardAll()
    var samples: [Float] = []
    var chunk = [Float](repeating: 0, count: 4096)
    let end = ChildProcess.now() + seconds
    while ChildProcess.now() < end {
      let count = chunk.withUnsafeMutableBufferPointer { buffer.read(into: $0) }
      samples += chunk[..<count]
      usleep(5_000)
    }
    return samples
  }
}

/// A thread that drives an ``EngineDrivenCapture`` as the engine does: starts it, waits in its
/// `wait` (libpulse's descriptors and timers, and a stop request) until told to stop, then
/// stops it, all on that one thread.
final class SourceDriver: Sendable {
  private let stopRequest = StopSignal()
  private let thread: Lock<PosixThread?>
  /// Players to follow, handed to the driving thread (the source's calls must run on it).
  private let players = PendingPlayers()

  init(_ source: some EngineDrivenCapture, into buffer: CaptureBuffer) {
    let stopRequest = stopRequest
    let players = players
    thread = Lock(
      PosixThread.spawn {
        PosixThread.nameCurrent("pb-test-driver")
        source.start(into: buffer)
        var poll = PollSet()
        poll.add(stopRequest.descriptor)
        poll.add(players.wake.descriptor)
        while !stopRequest.isRequested {
          _ = source.wait(&poll, timeoutMilliseconds: -1, audioWanted: true)
          for player in players.take() { source.follow(player: player) }
        }
        source.stop()
      })
  }

  /// Tells the source on its own thread, as the engine does, to follow `player`.
  func follow(player: PlayerAudioIdentity?) {
    players.list.withLock { $0.append(player) }
    players.wake.signal()
  }

  /// Ends the loop and waits until the source is stopped. Idempotent.
  func stop() {
    stopRequest.request()
    thread.withLock { thread in
      thread?.join()
      thread = nil
    }
  }
}

/// Players a ``SourceDriver`` is to follow, and the signal that wakes its thread for them.
private final class PendingPlayers: Sendable {
  let list = Lock<[PlayerAudioIdentity?]>([])
  let wake = WakeSignal()

  /// The players handed over so far, in order; the list is then empty.
  func take() -> [PlayerAudioIdentity?] {
    wake.drain()
    return list.withLock { list in
      defer { list = [] }
      return list
    }
  }
}

/// Lines a source's debug closure wrote, shared with the thread that drives it.
private final class DebugLines: Sendable {
  let lines = Lock<[String]>([])
}

/// Root mean square of `samples`.
func rms(_ samples: [Float]) -> Float {
  guard !samples.isEmpty else { return 0 }
  return (samples.reduce(0) { $0 + $1 * $1 } / Float(samples.count)).squareRoot()
}

/// The power at `frequency` Hz in the left channel of interleaved stereo (Goertzel).
func power(at frequency: Double, in stereo: [Float], sampleRate: Double = 44100) -> Double {
  let coefficient = 2 * cos(2 * Double.pi * frequency / sampleRate)
  var previous = 0.0
  var beforePrevious = 0.0
  var index = 0
  while index < stereo.count {
    let current = Double(stereo[index]) + coefficient * previous - beforePrevious
    beforePrevious = previous
    previous = current
    index += 2
  }
  let frames = Double(stereo.count / 2)
  return
    (previous * previous + beforePrevious * beforePrevious
    - coefficient * previous * beforePrevious) / max(1, frames * frames)
}

internal import CPipeWire
import Glibc
import PulseBarCore
import PulseBarSystem

/// The native PipeWire adapter of the capture: one core connection and the ``CaptureCore``
/// that decides everything about it, as on PulseAudio. libpipewire's callbacks become
/// ``CaptureEvent``s (``send(_:)``): the graph the registry tells (``PipeWireGraphWatch``) is
/// told to the core as it changes (``PipeWireGraphEvents``: a stream node is a ``ServerStream``
/// whose sink comes with its link, the `default.audio.sink` metadata is the server's default);
/// the core's ``CaptureAction``s become libpipewire calls (``perform(_:)``): the monitor
/// stream (``PipeWireMonitorStream``), one stream per node of the player
/// (``PipeWirePlayerStream``), the mixer's lanes, the one timer.
///
/// Loop-side: these objects are touched only with the thread loop's lock held, that is from
/// libpipewire callbacks (which run on the loop thread with the lock held) or from
/// ``PipeWireSource`` through ``PipeWireThreadLoop/withLock(_:)``; debug builds assert it
/// (``PipeWireThreadLoop/assertLocked(_:file:line:)``). That lock is libpipewire's, which the
/// compiler cannot see, so these classes are not `Sendable`; the data thread reaches none of
/// them (its callbacks read ``PipeWireMonitorProcess`` and ``PipeWirePlayerProcess``, and tell
/// the loop through ``streamTimer``). Callbacks find them through their `data`, an unretained
/// pointer; ``PipeWireSource`` keeps the connection, and so its parts, alive until the loop is
/// destroyed. No part holds a reference to another or back to the connection.
final class PipeWireConnection: PipeWireCallbackTarget {
  let threadLoop: PipeWireThreadLoop
  let context: OpaquePointer
  let buffer: CaptureBuffer
  /// The PipeWire remote, or `nil` for libpipewire's default.
  let remote: String?
  let sampleRate: Int
  /// The channel count streams are connected with (a reload changes it).
  private(set) var channels: Int
  private let log: CaptureLog
  let debug: CaptureLog?
  private let driver: CaptureCoreDriver

  /// The PipeWire core while connected, and the round trip awaited.
  var server = PipeWireCoreState()
  /// The registry, the bound nodes and the metadata, and what of them the core was told.
  let watch: PipeWireGraphWatch
  var told = PipeWireGraphEvents()
  /// The record streams the core named: the monitor's and the player's.
  let monitor: PipeWireMonitorStream
  var players: [PipeWirePlayerStream] = []
  /// What the data thread shares with the loop: whether the player's streams deliver, and the
  /// mixer's lanes.
  let handOver: PipeWireHandOver
  /// The core's one timer (``CaptureAction/armTimer(at:)``).
  private var timer: PipeWireLoopTimer?
  /// Has the loop look at the streams soon, outside their own callbacks: one ended or first
  /// delivered (armed from the data thread too), or the server hung up.
  private(set) var streamTimer: PipeWireLoopTimer?

  // Listener storage: libpipewire keeps pointers to these, so they live as long as we do.
  let coreHook = UnsafeMutablePointer.allocate(initializedTo: spa_hook())
  let coreEvents = UnsafeMutablePointer.allocate(initializedTo: pw_core_events())

  /// Made before `threadLoop` runs.
  init(
    threadLoop: PipeWireThreadLoop, context: OpaquePointer, settings: PipeWireSource.Settings,
    buffer: CaptureBuffer, log: @escaping CaptureLog, debug: CaptureLog?
  ) {
    self.threadLoop = threadLoop
    self.context = context
    self.buffer = buffer
    remote = settings.remote
    sampleRate = settings.sampleRate
    channels = settings.channels
    self.log = log
    self.debug = debug
    driver = CaptureCoreDriver(
      CaptureCore(
        CaptureConfiguration(
          namedSource: nil, scope: settings.scope, sampleRate: settings.sampleRate,
          wording: .pipeWire, recordingFollowsMoves: true, keepsPausedStreams: false,
          parentOf: { ProcessTable.parent(of: $0) })))
    watch = PipeWireGraphWatch(threadLoop: threadLoop)
    handOver = PipeWireHandOver(sampleRate: settings.sampleRate)
    monitor = PipeWireMonitorStream(
      threadLoop: threadLoop, sampleRate: settings.sampleRate, buffer: buffer,
      handOver: handOver, debug: debug)
    watch.changed = { [weak self] in self?.graphChanged() }
    fillCoreEvents()
    timer = .make(on: threadLoop.loop, data: userdata) { data, _ in
      PipeWireConnection.from(data).send(.timerFired)
    }
    streamTimer = .make(on: threadLoop.loop, data: userdata) { data, _ in
      PipeWireConnection.from(data).streamsChanged()
    }
  }

  deinit {
    coreHook.deallocate()
    coreEvents.deallocate()
  }

  // MARK: - Events in

  /// Hands `event` to the core and carries out what it decides (``CaptureCoreDriver``); then
  /// the monitor's process callback learns whether the player's streams deliver.
  func send(_ event: CaptureEvent) {
    threadLoop.assertLocked("PipeWireConnection")
    driver.send(event) { perform($0) }
    // A player's stream that delivered before the core heard of it counts at once: the
    // monitor's audio is dropped, two signals never interleave.
    handOver.delivering.store(
      players.contains { $0.process.delivered.load(ordering: .acquiring) }, ordering: .releasing)
  }

  /// The source starts: connect.
  func start() { send(.start) }

  func follow(player: PlayerAudioIdentity?) { send(.playerChanged(player)) }

  /// What a reload changed, as one core event: a new channel count makes the streams again
  /// (a stream's format is fixed when it is connected), a new scope plans afresh. The
  /// analysis rate sizes nothing on PipeWire (one quantum throughout).
  func reconfigure(_ change: CaptureChange) {
    threadLoop.assertLocked("PipeWireConnection")
    let channels = change.format?.channels ?? self.channels
    let formatChanged = channels != self.channels
    self.channels = channels
    guard formatChanged || change.scope != nil else { return }
    send(.reconfigured(scope: change.scope, format: formatChanged, steadyFragment: false))
  }

  /// Tears everything down for good (``PipeWireSource/stop()``), the timers last: a player
  /// stream's callback may arm one until the stream is gone.
  func shutdown() {
    send(.stop)
    disconnect()
    timer?.destroy()
    timer = nil
    streamTimer?.destroy()
    streamTimer = nil
  }

  /// The graph changed: what of it the core was not told yet.
  private func graphChanged() {
    for event in told.events(for: watch.graph) { send(event) }
  }

  // MARK: - Actions out

  private func perform(_ action: CaptureAction) {
    switch action {
    case .connect: connect()
    case .disconnect: disconnect()
    case .describeServer, .describeSink, .describeSource:
      if let answer = told.answer(action, in: watch.graph, rate: sampleRate) { send(answer) }
    case .open(let request): open(request)
    case .close(let id): close(id)
    case .cork(let id, let corked): if monitor.id == id { monitor.setActive(!corked) }
    case .setFragment: break  // One quantum throughout: the graph keeps its own period.
    case .mix(let ids):
      let keys = ids.map(\.rawValue)
      handOver.mixing.withLock { $0.reset(keys: keys) }
    case .startGeneration(let marking, let sourceName):
      buffer.startGeneration(markingSwitch: marking, sourceName: sourceName)
    case .armTimer(let time): timer?.arm(after: time - driver.now)
    case .publish(let status): buffer.publish(status)
    case .log(let line): log(line)
    case .debug(let line): debug?(line)
    }
  }
}

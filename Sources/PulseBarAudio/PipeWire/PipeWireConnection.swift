internal import CPipeWire
import Glibc
import PulseBarCore
import PulseBarSystem

/// An object libpipewire's callbacks find through their `data`: an unretained pointer to it.
/// It must outlive the listeners it registers, and remove their hooks before it is freed.
protocol PipeWireCallbackTarget: AnyObject {}

extension PipeWireCallbackTarget {
  /// The `data` its callbacks get.
  var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  /// The object behind a callback's `data`.
  static func from(_ data: UnsafeMutableRawPointer?) -> Self {
    Unmanaged<Self>.fromOpaque(data!).takeUnretainedValue()
  }
}

/// A part of a ``PipeWireConnection``: it reaches what the parts share (the core, the
/// settings, the buffer, the logs, the other parts) through an unowned back reference, as the
/// connection owns its parts and outlives them.
protocol PipeWireConnectionPart: PipeWireCallbackTarget {
  var connection: PipeWireConnection { get }
}

extension PipeWireConnectionPart {
  var core: OpaquePointer? { connection.core }
  var settings: PipeWireSource.Settings { connection.settings }
  var buffer: CaptureBuffer { connection.buffer }
  var log: CaptureLog { connection.log }
  var debug: CaptureLog? { connection.debug }
}

extension UnsafeMutablePointer {
  /// One `Pointee` on the heap, set to `value`: a listener's hook or event table, which
  /// libpipewire keeps a pointer to; its owner deallocates it once the listener is removed.
  static func allocate(initializedTo value: Pointee) -> Self {
    let pointer = allocate(capacity: 1)
    pointer.initialize(to: value)
    return pointer
  }
}

/// The libpipewire side of ``PipeWireSource``: one core connection and its lifecycle (connect,
/// the initial round trip, a hang-up or refusal retried with back-off, a reload's new format,
/// shutdown), and the parts that live on the core:
/// - ``PipeWireGraphWatch``: the registry, the bound stream nodes and the `default` metadata,
///   which feed ``PipeWireGraph``; it publishes the followed sink when the graph changes;
/// - ``PipeWireMonitorStream``: the capture stream on the default sink's monitor;
/// - ``PipeWirePlayerScope``: what is recorded (`input.scope`) and the capture streams on the
///   active player's stream nodes.
///
/// Each part keeps its own state, listeners and C event tables, and is the `data` of its own
/// callbacks, so that none of them has to know the others' internals; the connection tears
/// them down in order (the player's streams, the monitor stream, the graph, the core).
///
/// Confinement: these objects are touched only with the thread loop's lock held, that is from
/// libpipewire callbacks (which run on the loop thread with the lock held) or from
/// ``PipeWireSource`` between `pw_thread_loop_lock` and `_unlock`. Callbacks find them through
/// their `data`, an unretained pointer; ``PipeWireSource`` keeps the connection, and so its
/// parts, alive until the loop is destroyed.
final class PipeWireConnection: PipeWireCallbackTarget {
  let threadLoop: OpaquePointer
  let loop: UnsafeMutablePointer<pw_loop>
  let context: OpaquePointer
  /// Channels change on a reload (``reformat(_:)``), the scope too
  /// (``PipeWirePlayerScope/scopeChanged(_:)``); the rest is fixed.
  var settings: PipeWireSource.Settings
  let buffer: CaptureBuffer
  let log: CaptureLog
  let debug: CaptureLog?

  var core: OpaquePointer?
  /// The initial registry round trip is done: the graph is complete.
  private(set) var synced = false

  /// The parts. `lazy` only so that they can be handed `self`; the initializer makes them.
  private(set) lazy var watch = PipeWireGraphWatch(connection: self)
  private(set) lazy var monitor = PipeWireMonitorStream(connection: self)
  private(set) lazy var scope = PipeWirePlayerScope(connection: self)

  // Listener storage: libpipewire keeps pointers to these, so they live as long as we do.
  private let coreHook = UnsafeMutablePointer.allocate(initializedTo: spa_hook())
  private let coreEvents = UnsafeMutablePointer.allocate(initializedTo: pw_core_events())

  private var retryTimer: UnsafeMutablePointer<spa_source>?
  /// Retries with back-off, one line when the server goes and one when it is back.
  private var outage = OutagePolicy()
  /// The server hung up (core error on the connection): the timer tears down, then retries.
  private var hungUp = false
  private var stopped = false

  init(
    threadLoop: OpaquePointer, context: OpaquePointer, settings: PipeWireSource.Settings,
    buffer: CaptureBuffer, log: @escaping CaptureLog, debug: CaptureLog?
  ) {
    self.threadLoop = threadLoop
    self.context = context
    loop = pw_thread_loop_get_loop(threadLoop)
    self.settings = settings
    self.buffer = buffer
    self.log = log
    self.debug = debug
    coreEvents.pointee.version = UInt32(PW_VERSION_CORE_EVENTS)
    coreEvents.pointee.done = { data, id, seq in
      PipeWireConnection.from(data).coreDone(id: id, seq: seq)
    }
    coreEvents.pointee.error = { data, id, _, res, message in
      PipeWireConnection.from(data).coreError(
        id: id, res: res, message: message.map { String(cString: $0) } ?? "")
    }
    // The parts and their event tables are made here, not on first use.
    _ = (watch, monitor, scope)
  }

  deinit {
    coreHook.deallocate()
    coreEvents.deallocate()
  }

  /// Runs `body` from outside the loop thread with the loop lock held.
  func withLoopLock(_ body: () -> Void) {
    pw_thread_loop_lock(threadLoop)
    body()
    pw_thread_loop_unlock(threadLoop)
  }

  // MARK: - Core

  /// Connects to the PipeWire core, listens to the registry and asks for a round trip (whose
  /// `done` says the graph is complete); makes the capture stream. Failures go to the retry path.
  func connect() {
    guard !stopped, core == nil else { return }
    var properties: UnsafeMutablePointer<pw_properties>?
    if let remote = settings.remote {
      properties = pw_properties_new_string("")
      pw_properties_set(properties, PW_KEY_REMOTE_NAME, remote)
    }
    guard let core = pw_context_connect(context, properties, 0) else {
      lost(reason: "cannot connect: \(String(cString: strerror(errno)))")
      return
    }
    self.core = core
    pb_pw_core_add_listener(core, coreHook, coreEvents, userdata)
    guard watch.watchRegistry(of: core) else {
      lost(reason: "cannot get the registry")
      return
    }
    pb_pw_core_sync(core, 0)
    monitor.openStream()
  }

  private func coreDone(id: UInt32, seq: Int32) {
    guard id == PW_ID_CORE, !synced, core != nil else { return }
    synced = true
    if outage.connected() { log("PipeWire: connected again") }
    debug?("PipeWire: connected to the core")
    buffer.updateStatus { $0.connected = true }
    watch.graphChanged()
  }

  /// An error on the connection itself (the server went away: `-EPIPE`) ends it; an error on
  /// another object is only logged for `-v`.
  private func coreError(id: UInt32, res: Int32, message: String) {
    guard id == PW_ID_CORE else {
      debug?("PipeWire: error on object \(id): \(message)")
      return
    }
    guard res == -EPIPE else {
      debug?("PipeWire: core error \(res): \(message)")
      return
    }
    // Not torn down here: libpipewire is still inside the core's own dispatch.
    hungUp = true
    armTimer(after: 0.000_001)
  }

  /// The server is gone or refused us: log once per outage, drop everything, retry later.
  func lost(reason: String) {
    let retry = outage.lost()
    if retry.announce {
      log(
        "PipeWire: \(reason); retrying with back-off (is pipewire running? `pw-cli info 0` tells)")
    }
    disconnect()
    buffer.updateStatus {
      $0.connected = false
      $0.activity = .none
    }
    armTimer(after: retry.after)
  }

  /// Destroys the streams, the proxies, the registry and the core; forgets the graph.
  private func disconnect() {
    scope.closePlayerStreams()
    monitor.closeStream()
    watch.unwatch()
    if let core {
      spa_hook_remove(coreHook)
      coreHook.pointee = spa_hook()
      pw_core_disconnect(core)
      self.core = nil
    }
    scope.failedNodes.removeAll()
    synced = false
  }

  /// Makes the monitor stream again at `format`'s channel count (a reload), and the player's
  /// streams: a stream's format is fixed when it is connected. The connection and the graph
  /// stay; the generation is bumped so the engine drops its history.
  func reformat(_ format: CaptureFormat) {
    guard settings.channels != format.channels else { return }
    settings.channels = format.channels
    guard monitor.stream != nil else { return }
    scope.closePlayerStreams()
    monitor.closeStream()
    buffer.discardAll()
    if scope.monitorWanted { buffer.markSourceSwitch() }
    buffer.updateStatus { $0.generation &+= 1 }
    monitor.openStream()
    // The player's streams again, at the new channel count.
    scope.reconcileScope()
  }

  // MARK: - Retry timer

  /// Arms the one retry timer to fire in `seconds`.
  private func armTimer(after seconds: Double) {
    guard !stopped else { return }
    if retryTimer == nil {
      retryTimer = pb_pw_loop_add_timer(
        loop, { data, _ in PipeWireConnection.from(data).timerFired() }, userdata)
    }
    guard let retryTimer else { return }
    pb_pw_loop_arm_timer(loop, retryTimer, max(1, UInt64((seconds * 1_000_000).rounded())))
  }

  /// After a hang-up: tear down and retry; with no core: connect again; otherwise (a failed
  /// stream) make the stream again.
  private func timerFired() {
    if hungUp {
      hungUp = false
      lost(reason: "the server hung up")
    } else if core == nil {
      connect()
    } else if monitor.stream == nil {
      monitor.openStream()
    }
  }

  /// Arms the retry timer with the next back-off delay (a stream that failed).
  func scheduleRetry() { armTimer(after: outage.failedWhileConnected()) }

  /// Tears everything down for good (``PipeWireSource/stop()``).
  func shutdown() {
    stopped = true
    if let retryTimer {
      pb_pw_loop_destroy_source(loop, retryTimer)
      self.retryTimer = nil
    }
    // The streams first: a player stream's callback may arm the scope timer until it is gone.
    disconnect()
    scope.destroyScopeTimer()
    buffer.updateStatus {
      $0.connected = false
      $0.activity = .none
    }
  }
}

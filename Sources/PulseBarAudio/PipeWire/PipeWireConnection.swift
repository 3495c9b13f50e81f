internal import CPipeWire
import Glibc
import PulseBarCore
import PulseBarSystem

/// The libpipewire side of ``PipeWireSource``: one core connection and its lifecycle (connect,
/// the initial round trip, a hang-up or refusal retried with back-off, a failed stream made
/// again, shutdown), and the owner of ``PipeWireRecording``, what is recorded on the core. The
/// recording tells it only that its stream failed (a closure to this owner); everything else
/// goes down from here.
///
/// Loop-side: these objects are touched only with the thread loop's lock held, that is from
/// libpipewire callbacks (which run on the loop thread with the lock held) or from
/// ``PipeWireSource`` through ``PipeWireThreadLoop/withLock(_:)``; debug builds assert it
/// (``PipeWireThreadLoop/assertLocked(_:file:line:)``). That lock is libpipewire's, which the
/// compiler cannot see, so these classes are not `Sendable`; the data thread reaches none of
/// them (its callbacks read ``PipeWireMonitorProcess`` and ``PipeWirePlayerProcess``).
/// Callbacks find them through their `data`, an unretained pointer; ``PipeWireSource`` keeps
/// the connection, and so its parts, alive until the loop is destroyed.
final class PipeWireConnection: PipeWireCallbackTarget {
  let threadLoop: PipeWireThreadLoop
  let context: OpaquePointer
  let buffer: CaptureBuffer
  /// The PipeWire remote, or `nil` for libpipewire's default.
  private let remote: String?
  private let log: CaptureLog
  private let debug: CaptureLog?
  /// What is recorded on the core.
  let recording: PipeWireRecording

  private var core: OpaquePointer?
  /// The initial registry round trip is done: the graph is complete.
  private var synced = false

  // Listener storage: libpipewire keeps pointers to these, so they live as long as we do.
  private let coreHook = UnsafeMutablePointer.allocate(initializedTo: spa_hook())
  private let coreEvents = UnsafeMutablePointer.allocate(initializedTo: pw_core_events())

  /// Retries with back-off (made with the connection, before the loop runs).
  private var retryTimer: PipeWireLoopTimer?
  /// Retries with back-off, one line when the server goes and one when it is back.
  private var outage = OutagePolicy()
  /// The server hung up (core error on the connection): the timer tears down, then retries.
  private var hungUp = false
  private var stopped = false

  /// Made before `threadLoop` runs.
  init(
    threadLoop: PipeWireThreadLoop, context: OpaquePointer, settings: PipeWireSource.Settings,
    buffer: CaptureBuffer, log: @escaping CaptureLog, debug: CaptureLog?
  ) {
    self.threadLoop = threadLoop
    self.context = context
    self.buffer = buffer
    remote = settings.remote
    self.log = log
    self.debug = debug
    recording = PipeWireRecording(
      threadLoop: threadLoop, settings: settings, buffer: buffer, log: log, debug: debug)
    recording.streamFailed = { [weak self] in self?.scheduleRetry() }
    coreEvents.pointee.version = UInt32(PW_VERSION_CORE_EVENTS)
    coreEvents.pointee.done = { data, id, seq in
      PipeWireConnection.from(data).coreDone(id: id, seq: seq)
    }
    coreEvents.pointee.error = { data, id, _, res, message in
      PipeWireConnection.from(data).coreError(
        id: id, res: res, message: message.map { String(cString: $0) } ?? "")
    }
    retryTimer = .make(on: threadLoop.loop, data: userdata) { data, _ in
      PipeWireConnection.from(data).retryTimerFired()
    }
  }

  deinit {
    coreHook.deallocate()
    coreEvents.deallocate()
  }

  /// Connects to the PipeWire core, listens to the registry and asks for a round trip (whose
  /// `done` says the graph is complete); makes the capture stream. Failures go to the retry path.
  func connect() {
    threadLoop.assertLocked("PipeWireConnection")
    guard !stopped, core == nil else { return }
    var properties: UnsafeMutablePointer<pw_properties>?
    if let remote {
      properties = pw_properties_new_string("")
      pw_properties_set(properties, PW_KEY_REMOTE_NAME, remote)
    }
    guard let core = pw_context_connect(context, properties, 0) else {
      lost(reason: "cannot connect: \(String(cString: strerror(errno)))")
      return
    }
    self.core = core
    pb_pw_core_add_listener(core, coreHook, coreEvents, userdata)
    guard recording.attach(to: core) else {
      lost(reason: "cannot get the registry")
      return
    }
    pb_pw_core_sync(core, 0)
    recording.openMonitor()
  }

  private func coreDone(id: UInt32, seq: Int32) {
    threadLoop.assertLocked("PipeWireConnection")
    guard id == PW_ID_CORE, !synced, core != nil else { return }
    synced = true
    if outage.connected() { log("PipeWire: connected again") }
    debug?("PipeWire: connected to the core")
    buffer.updateStatus { $0.connected = true }
    recording.synchronized()
  }

  /// An error on the connection itself (the server went away: `-EPIPE`) ends it; an error on
  /// another object is only logged for `-v`.
  private func coreError(id: UInt32, res: Int32, message: String) {
    threadLoop.assertLocked("PipeWireConnection")
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
    armRetry(after: 0.000_001)
  }

  /// The server is gone or refused us: log once per outage, drop everything, retry later.
  private func lost(reason: String) {
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
    armRetry(after: retry.after)
  }

  /// Destroys what is recorded (the streams, the proxies, the registry), then the core.
  private func disconnect() {
    recording.detach()
    if let core {
      spa_hook_remove(coreHook)
      coreHook.pointee = spa_hook()
      pw_core_disconnect(core)
      self.core = nil
    }
    synced = false
  }

  // MARK: - Retry timer

  /// Arms the one retry timer to fire in `seconds`.
  private func armRetry(after seconds: Double) {
    guard !stopped else { return }
    retryTimer?.arm(after: seconds)
  }

  /// After a hang-up: tear down and retry; with no core: connect again; otherwise (a failed
  /// stream) make the stream again.
  private func retryTimerFired() {
    threadLoop.assertLocked("PipeWireConnection")
    if hungUp {
      hungUp = false
      lost(reason: "the server hung up")
    } else if core == nil {
      connect()
    } else {
      recording.openMonitor()
    }
  }

  /// Arms the retry timer with the next back-off delay (a stream that failed).
  private func scheduleRetry() { armRetry(after: outage.failedWhileConnected()) }

  /// Tears everything down for good (``PipeWireSource/stop()``).
  func shutdown() {
    threadLoop.assertLocked("PipeWireConnection")
    stopped = true
    retryTimer?.destroy()
    retryTimer = nil
    disconnect()
    recording.shutdown()
    buffer.updateStatus {
      $0.connected = false
      $0.activity = .none
    }
  }
}

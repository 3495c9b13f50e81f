internal import CPipeWire
import Glibc
import PulseBarCore
import PulseBarSystem

/// The libpipewire side of ``PipeWireSource``: one core connection, the registry and what it
/// tells (``PipeWireGraph``), the bound stream nodes and default metadata, the capture stream
/// on the default sink's monitor, the capture streams on the active player's stream nodes
/// (`input.scope = player`), and the retry timer.
///
/// Confinement: this object is touched only with the thread loop's lock held, that is from
/// libpipewire callbacks (which run on the loop thread with the lock held) or from
/// ``PipeWireSource`` between `pw_thread_loop_lock` and `_unlock`. Callbacks find it through
/// their `data`, an unretained pointer; ``PipeWireSource`` keeps it alive until the loop is
/// destroyed.
final class PipeWireConnection {
  /// A bound proxy (a stream node for its state, the default metadata) and its listener.
  struct Bound {
    let proxy: OpaquePointer
    let hook: UnsafeMutablePointer<spa_hook>
  }

  let threadLoop: OpaquePointer
  let loop: UnsafeMutablePointer<pw_loop>
  let context: OpaquePointer
  /// Channels change on a reload (``reformat(_:)``); the rest is fixed.
  var settings: PipeWireSource.Settings
  let buffer: CaptureBuffer
  let log: PulseSource.Log
  let debug: PulseSource.Log?

  var core: OpaquePointer?
  var registry: OpaquePointer?
  var graph = PipeWireGraph()
  /// Stream nodes bound for their state, by global id.
  var boundNodes: [UInt32: Bound] = [:]
  /// The `default` metadata, bound for `default.audio.sink`, and its global id.
  var metadata: Bound?
  var metadataId: UInt32?
  /// The initial registry round trip is done: the graph is complete.
  var synced = false
  /// The capture stream while connected.
  var stream: OpaquePointer?
  /// The channel count the current stream was connected with.
  var streamChannels = 1
  /// The stream's activity as last set (`pw_stream_set_active`).
  var streamActive = false
  /// The sink whose monitor is published as the source (its `node.name`).
  var followedSinkName: String?
  /// What the bars record: the active player's stream nodes or the whole output.
  var selection: PlayerStreamSelection
  /// The active MPRIS player, as the engine last said.
  var player: PlayerAudioIdentity?
  /// What is recorded now, and why (``reconcileScope()``).
  var target: CaptureTarget
  /// The capture streams on the player's stream nodes, while ``target`` is the player.
  var playerStreams: [PlayerCaptureStream] = []
  /// One of the player's capture streams has delivered: the monitor stream's data is dropped
  /// and it is made inactive.
  var playerDelivers = false
  /// Stream nodes whose capture stream failed; tried again once the node changes.
  var failedNodes: Set<UInt32> = []
  /// Sums the player's streams (a stream may lag 50 ms behind the others).
  let mixer: StreamMixer
  /// Reconciles the scope soon, outside a stream's own callback.
  var scopeTimer: UnsafeMutablePointer<spa_source>?

  // Listener storage: libpipewire keeps pointers to these, so they live as long as we do.
  let coreHook = UnsafeMutablePointer<spa_hook>.allocate(capacity: 1)
  let registryHook = UnsafeMutablePointer<spa_hook>.allocate(capacity: 1)
  let streamHook = UnsafeMutablePointer<spa_hook>.allocate(capacity: 1)
  let coreEvents = UnsafeMutablePointer<pw_core_events>.allocate(capacity: 1)
  let registryEvents = UnsafeMutablePointer<pw_registry_events>.allocate(capacity: 1)
  let nodeEvents = UnsafeMutablePointer<pw_node_events>.allocate(capacity: 1)
  let metadataEvents = UnsafeMutablePointer<pw_metadata_events>.allocate(capacity: 1)
  let streamEvents = UnsafeMutablePointer<pw_stream_events>.allocate(capacity: 1)
  /// The player streams' events; each stream's `data` is its ``PlayerCaptureStream``.
  let playerStreamEvents = UnsafeMutablePointer<pw_stream_events>.allocate(capacity: 1)

  var retryTimer: UnsafeMutablePointer<spa_source>?
  /// Retries with back-off, one line when the server goes and one when it is back.
  var outage = OutagePolicy()
  /// The server hung up (core error on the connection): the timer tears down, then retries.
  var hungUp = false
  var stopped = false

  init(
    threadLoop: OpaquePointer, context: OpaquePointer, settings: PipeWireSource.Settings,
    buffer: CaptureBuffer, log: @escaping PulseSource.Log, debug: PulseSource.Log?
  ) {
    self.threadLoop = threadLoop
    self.context = context
    loop = pw_thread_loop_get_loop(threadLoop)
    self.settings = settings
    self.buffer = buffer
    self.log = log
    self.debug = debug
    selection = PlayerStreamSelection(scope: settings.scope)
    target = settings.scope == .output ? .output(.scopeIsOutput) : .output(.noPlayer)
    mixer = StreamMixer(maximumLag: settings.sampleRate / 20 * CaptureFormat.maxChannels)
    for hook in [coreHook, registryHook, streamHook] { hook.initialize(to: spa_hook()) }
    initializeGraphEvents()
    initializeStreamEvents()
  }

  /// The core's, the registry's, the nodes' and the metadata's callbacks.
  private func initializeGraphEvents() {
    coreEvents.initialize(to: pw_core_events())
    coreEvents.pointee.version = UInt32(PW_VERSION_CORE_EVENTS)
    coreEvents.pointee.done = { data, id, seq in
      PipeWireConnection.from(data).coreDone(id: id, seq: seq)
    }
    coreEvents.pointee.error = { data, id, _, res, message in
      PipeWireConnection.from(data).coreError(
        id: id, res: res, message: message.map { String(cString: $0) } ?? "")
    }
    registryEvents.initialize(to: pw_registry_events())
    registryEvents.pointee.version = UInt32(PW_VERSION_REGISTRY_EVENTS)
    registryEvents.pointee.global = { data, id, _, type, _, props in
      guard let type else { return }
      PipeWireConnection.from(data).global(id: id, type: String(cString: type), props: props)
    }
    registryEvents.pointee.global_remove = { data, id in
      PipeWireConnection.from(data).globalRemoved(id: id)
    }
    nodeEvents.initialize(to: pw_node_events())
    nodeEvents.pointee.version = UInt32(PW_VERSION_NODE_EVENTS)
    nodeEvents.pointee.info = { data, info in
      guard let info else { return }
      let propertiesChanged = info.pointee.change_mask & UInt64(PW_NODE_CHANGE_MASK_PROPS) != 0
      PipeWireConnection.from(data).nodeInfo(
        id: info.pointee.id, running: info.pointee.state == PW_NODE_STATE_RUNNING,
        props: propertiesChanged ? info.pointee.props : nil)
    }
    metadataEvents.initialize(to: pw_metadata_events())
    metadataEvents.pointee.version = UInt32(PW_VERSION_METADATA_EVENTS)
    metadataEvents.pointee.property = { data, subject, key, _, value in
      PipeWireConnection.from(data).metadataProperty(
        subject: subject, key: key.map { String(cString: $0) }, value: value)
      return 0
    }
  }

  /// The capture streams' callbacks: the output's, and each of the player's.
  private func initializeStreamEvents() {
    streamEvents.initialize(to: pw_stream_events())
    streamEvents.pointee.version = UInt32(PW_VERSION_STREAM_EVENTS)
    streamEvents.pointee.state_changed = { data, _, state, error in
      PipeWireConnection.from(data).streamStateChanged(
        state, error: error.map { String(cString: $0) })
    }
    streamEvents.pointee.process = { data in PipeWireConnection.from(data).process() }
    playerStreamEvents.initialize(to: pw_stream_events())
    playerStreamEvents.pointee.version = UInt32(PW_VERSION_STREAM_EVENTS)
    playerStreamEvents.pointee.state_changed = { data, _, state, error in
      let recording = PlayerCaptureStream.from(data)
      recording.connection.playerStreamStateChanged(
        recording, state, error: error.map { String(cString: $0) })
    }
    playerStreamEvents.pointee.process = { data in
      let recording = PlayerCaptureStream.from(data)
      recording.connection.playerProcess(recording)
    }
  }

  deinit {
    for hook in [coreHook, registryHook, streamHook] { hook.deallocate() }
    coreEvents.deallocate()
    registryEvents.deallocate()
    nodeEvents.deallocate()
    metadataEvents.deallocate()
    streamEvents.deallocate()
    playerStreamEvents.deallocate()
  }

  /// The `data` every callback gets.
  var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  /// The connection behind a callback's `data`.
  static func from(_ data: UnsafeMutableRawPointer?) -> PipeWireConnection {
    Unmanaged<PipeWireConnection>.fromOpaque(data!).takeUnretainedValue()
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
    guard let registry = pw_core_get_registry(core, UInt32(PW_VERSION_REGISTRY), 0) else {
      lost(reason: "cannot get the registry")
      return
    }
    self.registry = registry
    pb_pw_registry_add_listener(registry, registryHook, registryEvents, userdata)
    pb_pw_core_sync(core, 0)
    openStream()
  }

  private func coreDone(id: UInt32, seq: Int32) {
    guard id == PW_ID_CORE, !synced, core != nil else { return }
    synced = true
    if outage.connected() { log("PipeWire: connected again") }
    debug?("PipeWire: connected to the core")
    buffer.updateStatus { $0.connected = true }
    graphChanged()
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

  /// Destroys the stream, the proxies, the registry and the core; forgets the graph.
  private func disconnect() {
    closePlayerStreams()
    closeStream()
    for id in Array(boundNodes.keys) { unbindNode(id) }
    if let metadata {
      Self.release(metadata)
      self.metadata = nil
      metadataId = nil
    }
    if let registry {
      spa_hook_remove(registryHook)
      registryHook.pointee = spa_hook()
      pw_proxy_destroy(registry)
      self.registry = nil
    }
    if let core {
      spa_hook_remove(coreHook)
      coreHook.pointee = spa_hook()
      pw_core_disconnect(core)
      self.core = nil
    }
    graph.removeAll()
    failedNodes.removeAll()
    synced = false
    followedSinkName = nil
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
    } else if stream == nil {
      openStream()
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
    if let scopeTimer {
      pb_pw_loop_destroy_source(loop, scopeTimer)
      self.scopeTimer = nil
    }
    disconnect()
    buffer.updateStatus {
      $0.connected = false
      $0.activity = .none
    }
  }
}

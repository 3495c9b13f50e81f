internal import CPipeWire
import PulseBarCore
import PulseBarSystem
import Synchronization

/// One capture stream on one stream node of the active player: its `target.object` is the
/// node's `object.serial`, so WirePlumber links the node's output to it alone (what
/// `pw-record --target <serial>` does). Its callbacks find it through their `data`; the
/// ``PipeWirePlayerScope`` owns it. Its process callback runs on libpipewire's data thread
/// (``PipeWireCapture/connectCapture(_:sampleRate:channels:active:)``): what that callback
/// reads is fixed at creation, or atomic, or under the scope's mixer lock (``lane``).
final class PlayerCaptureStream: PipeWireCallbackTarget {
  unowned let scope: PipeWirePlayerScope
  let stream: OpaquePointer
  let hook = UnsafeMutablePointer.allocate(initializedTo: spa_hook())
  /// The stream node it records, and that node's serial when the stream was made.
  let node: UInt32
  let serial: UInt32
  /// The channel count it was connected with.
  let channels: Int
  /// Its lane in the scope's ``StreamMixer``; read and changed under the mixer's lock.
  var lane: Int
  /// Its first quantum has arrived (set on the data thread).
  let delivered = Atomic(false)
  /// The scope is closing it: its state callbacks are the close's own, not a failure.
  var closing = false

  init(
    scope: PipeWirePlayerScope, stream: OpaquePointer, node: UInt32, serial: UInt32,
    channels: Int, lane: Int
  ) {
    self.scope = scope
    self.stream = stream
    self.node = node
    self.serial = serial
    self.channels = channels
    self.lane = lane
  }

  deinit { hook.deallocate() }
}

/// What the bars record under `input.scope`, and the capture streams on the active player's
/// stream nodes, a part of ``PipeWireConnection``: on every change of the graph, the player or
/// the scope, ``reconcileScope()`` decides (``PlayerCapturePlan``), opens and closes the
/// player's streams to match, and sets the monitor stream active or not. The player's streams
/// are summed (``StreamMixer``) into the buffer, and take over from the monitor stream once one
/// delivers. Their callbacks find their ``PlayerCaptureStream`` through their `data`, the scope
/// timer's finds this object.
///
/// Two threads: everything runs on the thread loop (its lock held) but the streams' process
/// callbacks, which run on libpipewire's data thread and touch only ``delivering`` (atomic),
/// the mixer (under its lock), the capture buffer (its own lock) and the scope timer (armed
/// with `timerfd_settime`, a syscall any thread may make). A stream is destroyed before
/// anything its callback uses goes: `pw_stream_destroy` waits for the data thread.
final class PipeWirePlayerScope: PipeWireConnectionPart {
  unowned let connection: PipeWireConnection
  /// What the bars record: the active player's stream nodes or the whole output.
  private var selection: PlayerStreamSelection
  /// The active MPRIS player, as the engine last said.
  private var player: PlayerAudioIdentity?
  /// What is recorded now, and why (``reconcileScope()``).
  private var target: CaptureTarget
  /// The capture streams on the player's stream nodes, while ``target`` is the player.
  private var playerStreams: [PlayerCaptureStream] = []
  /// One of the player's capture streams has delivered: the monitor stream's data is dropped
  /// and it is made inactive. Set on the data thread at a first delivery, recomputed on the
  /// loop at each reconcile (a reconcile that misses a delivery racing it is followed by the
  /// one that delivery armed).
  let delivering = Atomic(false)
  /// ``delivering``, read.
  var playerDelivers: Bool { delivering.load(ordering: .acquiring) }
  /// Stream nodes whose capture stream failed; tried again once the node changes (the graph
  /// watch forgets a node that changes or goes, the connection all of them when it is lost).
  var failedNodes: Set<UInt32> = []
  /// Sums the player's streams (a stream may lag 50 ms behind the others); used only under
  /// ``mixing``.
  private let mixer: StreamMixer
  /// Guards ``mixer`` and the streams' ``PlayerCaptureStream/lane`` (the data thread mixes,
  /// the loop resets the lanes).
  private let mixing = Lock(())
  /// Reconciles the scope soon, outside a stream's own callback.
  private var scopeTimer: UnsafeMutablePointer<spa_source>?
  /// The player streams' events; each stream's `data` is its ``PlayerCaptureStream``.
  private let playerStreamEvents = UnsafeMutablePointer.allocate(initializedTo: pw_stream_events())

  init(connection: PipeWireConnection) {
    self.connection = connection
    let settings = connection.settings
    selection = PlayerStreamSelection(scope: settings.scope)
    target = settings.scope == .output ? .output(.scopeIsOutput) : .output(.noPlayer)
    mixer = StreamMixer(maximumLag: settings.sampleRate / 20 * CaptureFormat.maxChannels)
    playerStreamEvents.pointee.version = UInt32(PW_VERSION_STREAM_EVENTS)
    playerStreamEvents.pointee.state_changed = { data, _, state, error in
      let recording = PlayerCaptureStream.from(data)
      recording.scope.playerStreamStateChanged(
        recording, state, error: error.map { String(cString: $0) })
    }
    playerStreamEvents.pointee.process = { data in
      let recording = PlayerCaptureStream.from(data)
      recording.scope.playerProcess(recording)
    }
  }

  deinit { playerStreamEvents.deallocate() }

  /// The graph, as the watch last heard it.
  private var graph: PipeWireGraph { connection.watch.graph }

  /// The active MPRIS player changed (or started or stopped playing): record what now belongs
  /// to it.
  func follow(player: PlayerAudioIdentity?) {
    guard player != self.player else { return }
    self.player = player
    reconcileScope()
  }

  /// `input.scope` changed on a reload.
  func scopeChanged(_ scope: CaptureScope) {
    connection.settings.scope = scope
    guard scope != selection.scope else { return }
    selection.scope = scope
    reconcileScope()
  }

  /// Decides what to record (``PlayerCapturePlan``) from the player and the graph, makes and
  /// closes the player's capture streams to match, sets the monitor stream active or not, and
  /// says what is recorded and whether it runs. Runs on every change of the graph, the player
  /// or the scope; a change that changes nothing costs a look at the graph.
  func reconcileScope() {
    guard connection.synced else { return }
    let sink = graph.followedSink
    let plan = PlayerCapturePlan(
      selection: selection, player: player,
      streams: graph.playbackStreams().filter { !failedNodes.contains($0.id) },
      onOutput: sink.map { graph.playbackStreams(onSink: $0) })
    let changed = plan.apply(
      to: playerStreams, stream: \.node,
      stale: { graph.stream($0.node)?.serial != $0.serial },
      close: closePlayerStream, open: openPlayerStream)
    if changed {
      // Lanes follow the streams' order; what a lane had queued is dropped with the old set.
      mixing.withLock { _ in
        mixer.reset(lanes: playerStreams.count)
        for (lane, recording) in playerStreams.enumerated() { recording.lane = lane }
      }
    }
    // A player's streams that all are new (another player's, or the same player's after a
    // pause) leave the monitor recording until one of them delivers.
    delivering.store(
      playerStreams.contains { $0.delivered.load(ordering: .acquiring) }, ordering: .releasing)
    if plan.target != target {
      target = plan.target
      let monitor = connection.watch.followedSinkName.map { $0 + ".monitor" } ?? "nothing"
      debug?("PipeWire: \(target.reason); recording \(recordsPlayer ? describedSource : monitor)")
    }
    let described = describedSource
    let activity = recordsPlayer ? .running : sink.map { graph.activity(onSink: $0) } ?? .none
    buffer.updateStatus {
      $0.sourceName = described
      $0.othersPlay = plan.othersPlay
      $0.activity = activity
    }
    connection.monitor.setActive(
      monitorWanted,
      because: playerDelivers
        ? "the player's streams are recorded" : monitorWanted ? "a stream plays" : "no stream plays"
    )
  }

  /// What json's `source` says is recorded: the player's stream nodes, or the followed sink's
  /// monitor (and why, when a player is there), nothing before a sink is followed.
  var describedSource: String {
    let followedSinkName = connection.watch.followedSinkName
    if case .output = target, followedSinkName == nil { return "" }
    return target.describe(streamKind: "node", output: (followedSinkName ?? "") + ".monitor")
  }

  /// The player's streams are recorded: they are what plays.
  private var recordsPlayer: Bool {
    if case .player = target { return !playerStreams.isEmpty }
    return false
  }

  /// Whether the monitor stream should run: something plays into the followed sink and the
  /// player's streams do not deliver instead.
  var monitorWanted: Bool {
    !playerDelivers && graph.followedSink.map { graph.activity(onSink: $0) } == .running
  }

  /// Makes a capture stream on stream node `node`; false when it cannot (the node is marked
  /// failed until it changes, so the output is recorded meanwhile).
  private func openPlayerStream(_ node: UInt32) -> Bool {
    guard let core, let serial = graph.stream(node)?.serial else {
      return markFailed(node, "node \(node) has no serial")
    }
    if scopeTimer == nil {
      // Made here, so the process callback that arms it allocates nothing.
      scopeTimer = pb_pw_loop_add_timer(
        connection.loop, { data, _ in PipeWirePlayerScope.from(data).reconcileScope() }, userdata)
    }
    let properties = PipeWireCapture.streamProperties([
      ("target.object", String(serial)), ("node.dont-reconnect", "true"),
      ("node.name", "pulsebar-player"), ("node.description", "pulsebar capture (player)"),
    ])
    guard let stream = pw_stream_new(core, "pulsebar capture (player)", properties) else {
      return markFailed(node, "cannot create a capture stream")
    }
    let recording = PlayerCaptureStream(
      scope: self, stream: stream, node: node, serial: serial, channels: settings.channels,
      lane: playerStreams.count)
    pw_stream_add_listener(stream, recording.hook, playerStreamEvents, recording.userdata)
    // Active at once: only a node that runs is recorded.
    let result = PipeWireCapture.connectCapture(
      stream, sampleRate: settings.sampleRate, channels: recording.channels, active: true)
    guard result >= 0 else {
      spa_hook_remove(recording.hook)
      pw_stream_destroy(stream)
      return markFailed(node, "cannot connect a capture stream to node \(node) (error \(result))")
    }
    playerStreams.append(recording)
    debug?("PipeWire: recording node \(node) (object.serial \(serial))")
    return true
  }

  /// Notes a node that cannot be recorded alone; it is tried again once it changes.
  private func markFailed(_ node: UInt32, _ reason: String) -> Bool {
    debug?("PipeWire: \(reason); recording the output instead")
    failedNodes.insert(node)
    return false
  }

  /// Destroys one of the player's capture streams (its state callback ignores the close).
  private func closePlayerStream(_ recording: PlayerCaptureStream) {
    recording.closing = true
    PipeWireCapture.destroy(recording.stream, listener: recording.hook)
    playerStreams.removeAll { $0 === recording }
    debug?("PipeWire: no longer recording node \(recording.node)")
  }

  /// Closes every player stream (a reload's new format, a lost connection, the end).
  func closePlayerStreams() {
    for recording in playerStreams { closePlayerStream(recording) }
    mixing.withLock { _ in mixer.reset(lanes: 0) }
    delivering.store(false, ordering: .releasing)
  }

  /// A player stream ended: WirePlumber destroys it when its node goes (`node.dont-reconnect`:
  /// it is never moved to another node), or it failed. It is closed from the scope timer, not
  /// inside its own callback; a node still there is not tried again until it changes.
  private func playerStreamStateChanged(
    _ recording: PlayerCaptureStream, _ state: pw_stream_state, error: String?
  ) {
    guard !recording.closing else { return }
    switch state {
    case PW_STREAM_STATE_ERROR, PW_STREAM_STATE_UNCONNECTED:
      debug?("PipeWire: the capture stream of node \(recording.node) ended (\(error ?? "?"))")
      if graph.stream(recording.node)?.serial == recording.serial {
        failedNodes.insert(recording.node)
      }
      scheduleReconcile()
    case PW_STREAM_STATE_STREAMING:
      debug?("PipeWire: capture stream of node \(recording.node) streaming")
    default: break
    }
  }

  /// The process callback of a player stream, on the data thread: its samples, through the
  /// mixer, into the buffer. The first samples hand over from the monitor stream, whose data is
  /// dropped from then on; the scope timer then makes it inactive. Allocates nothing.
  private func playerProcess(_ recording: PlayerCaptureStream) {
    PipeWireCapture.withDequeuedSamples(recording.stream) { samples in
      guard !samples.isEmpty else { return }
      if !recording.delivered.exchange(true, ordering: .acquiringAndReleasing),
        !delivering.exchange(true, ordering: .acquiringAndReleasing)
      {
        scheduleReconcile()
      }
      let channels = recording.channels
      mixing.withLock { _ in
        mixer.write(samples, lane: recording.lane) { mixed in
          buffer.write(mixed, channels: channels, origin: .player)
        }
      }
    }
  }

  /// Runs ``reconcileScope()`` from the loop soon, outside the callback that asks (which may
  /// be on the data thread: arming the timer is one `timerfd_settime`).
  private func scheduleReconcile() {
    guard let scopeTimer else { return }
    pb_pw_loop_arm_timer(connection.loop, scopeTimer, 1)
  }

  /// Destroys the scope timer for good (the connection's shutdown).
  func destroyScopeTimer() {
    guard let scopeTimer else { return }
    pb_pw_loop_destroy_source(connection.loop, scopeTimer)
    self.scopeTimer = nil
  }
}

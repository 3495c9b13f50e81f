internal import CPipeWire
import PulseBarCore

/// What the bars record under `input.scope`, and the capture streams on the active player's
/// stream nodes, a part of ``PipeWireRecording``: on every change of the graph, the player or
/// the scope, its owner has it ``reconcile(_:)``: it decides (``PlayerCapturePlan``), opens
/// and closes the player's streams to match, and returns what the owner publishes
/// and whether the monitor stream runs (``Outcome``). The player's streams are summed
/// (``PlayerStreamLanes``) into the buffer, and take over from the monitor stream once one
/// delivers (``PipeWireHandOver``).
///
/// Loop-side: touched on the loop thread or with the loop's lock held (asserted in debug). The
/// streams' process callbacks, on the data thread, reach only their ``PipeWirePlayerProcess``.
/// A stream is destroyed before anything its callback uses goes: `pw_stream_disconnect` waits
/// for the data thread.
final class PipeWirePlayerScope {
  /// What the owner hands a reconcile: the graph and the sink it follows, and what a new
  /// stream needs.
  struct Surroundings {
    let graph: PipeWireGraph
    /// The sink whose monitor is published as the source (its `node.name`).
    let followedSinkName: String?
    let core: OpaquePointer
    let channels: Int
    /// Has the loop reconcile again soon (armed from a stream's callbacks).
    let reconcileTimer: PipeWireLoopTimer
  }

  /// What a reconcile decided, for the owner to publish and apply.
  struct Outcome: Equatable {
    /// What json's `source` says is recorded.
    var sourceName: String
    var othersPlay: Bool
    var activity: StreamActivity
    /// Whether the monitor stream runs, and why (for `-v`).
    var monitorActive: Bool
    var monitorReason: String
  }

  private let threadLoop: PipeWireThreadLoop
  private let sampleRate: Int
  private let buffer: CaptureBuffer
  private let handOver: PipeWireHandOver
  private let debug: CaptureLog?
  /// What the bars record: the active player's stream nodes or the whole output.
  private var selection: PlayerStreamSelection
  /// The active MPRIS player, as the engine last said.
  private var player: PlayerAudioIdentity?
  /// What is recorded now, and why (``reconcile(_:)``).
  private var target: CaptureTarget
  /// The capture streams on the player's stream nodes, while ``target`` is the player.
  private var playerStreams: [PipeWirePlayerStream] = []
  /// Stream nodes whose capture stream failed; tried again once the node changes.
  private var failedNodes: Set<UInt32> = []
  /// The key the next stream gets in the mixer's lanes.
  private var nextKey: UInt64 = 0

  init(
    scope: CaptureScope, sampleRate: Int, buffer: CaptureBuffer, handOver: PipeWireHandOver,
    threadLoop: PipeWireThreadLoop, debug: CaptureLog?
  ) {
    self.threadLoop = threadLoop
    self.sampleRate = sampleRate
    self.buffer = buffer
    self.handOver = handOver
    self.debug = debug
    selection = PlayerStreamSelection(scope: scope)
    target = scope == .output ? .output(.scopeIsOutput) : .output(.noPlayer)
  }

  /// The active MPRIS player changed (or started or stopped playing); true when the owner should
  /// reconcile.
  func follow(player: PlayerAudioIdentity?) -> Bool {
    threadLoop.assertLocked("PipeWirePlayerScope")
    guard player != self.player else { return false }
    self.player = player
    return true
  }

  /// `input.scope` changed on a reload; true when the owner should reconcile.
  func scopeChanged(_ scope: CaptureScope) -> Bool {
    threadLoop.assertLocked("PipeWirePlayerScope")
    guard scope != selection.scope else { return false }
    selection.scope = scope
    return true
  }

  /// Stream node `node` changed or went: its capture stream may be tried again.
  func forgetFailure(of node: UInt32) { failedNodes.remove(node) }

  /// Decides what to record (``PlayerCapturePlan``) from the player and the graph, makes and
  /// closes the player's capture streams to match, and says what is recorded, whether it runs
  /// and whether the monitor stream should. A change that changes nothing costs a look at the
  /// graph.
  func reconcile(_ around: Surroundings) -> Outcome {
    threadLoop.assertLocked("PipeWirePlayerScope")
    let graph = around.graph
    failedNodes.formUnion(
      Self.failedNodes(ended: playerStreams.filter(\.ended).map { ($0.node, $0.serial) }, in: graph)
    )
    let sink = graph.followedSink
    let plan = PlayerCapturePlan(
      selection: selection, player: player,
      streams: graph.playbackStreams().filter { !failedNodes.contains($0.id) },
      onOutput: sink.map { graph.playbackStreams(onSink: $0) })
    let changed = plan.apply(
      to: playerStreams, stream: \.node,
      stale: { graph.stream($0.node)?.serial != $0.serial },
      close: close, open: { self.open($0, around) })
    if changed {
      // Lanes follow the streams' order; what a lane had queued is dropped with the old set.
      let keys = playerStreams.map(\.process.key)
      handOver.mixing.withLock { $0.reset(keys: keys) }
    }
    // A player's streams that all are new (another player's, or the same player's after a
    // pause) leave the monitor recording until one of them delivers.
    handOver.delivering.store(
      playerStreams.contains { $0.process.delivered.load(ordering: .acquiring) },
      ordering: .releasing)
    let sinkActivity = sink.map { graph.activity(onSink: $0) }
    if plan.target != target {
      target = plan.target
      let monitor = around.followedSinkName.map { $0 + ".monitor" } ?? "nothing"
      let recorded = recordsPlayer ? describedSource(around.followedSinkName) : monitor
      debug?("PipeWire: \(target.reason); recording \(recorded)")
    }
    let delivers = handOver.playerDelivers
    let monitorActive = Self.monitorWanted(playerDelivers: delivers, sinkActivity: sinkActivity)
    return Outcome(
      sourceName: describedSource(around.followedSinkName), othersPlay: plan.othersPlay,
      activity: recordsPlayer ? .running : sinkActivity ?? .none, monitorActive: monitorActive,
      monitorReason: delivers
        ? "the player's streams are recorded"
        : monitorActive ? "a stream plays" : "no stream plays")
  }

  /// The nodes whose capture stream ended (`node` with the `serial` it had when the stream was
  /// made) while the node is still the one recorded: they are not tried again until the node
  /// changes. A node that went, or came back with another serial, is not one of them.
  static func failedNodes(ended: [(node: UInt32, serial: UInt32)], in graph: PipeWireGraph)
    -> [UInt32]
  {
    ended.filter { graph.stream($0.node)?.serial == $0.serial }.map(\.node)
  }

  /// Whether the monitor stream should run: something plays into the followed sink
  /// (`sinkActivity`) and the player's streams do not deliver instead.
  static func monitorWanted(playerDelivers: Bool, sinkActivity: StreamActivity?) -> Bool {
    !playerDelivers && sinkActivity == .running
  }

  /// Whether the monitor stream should run in `graph` now.
  func monitorWanted(in graph: PipeWireGraph) -> Bool {
    Self.monitorWanted(
      playerDelivers: handOver.playerDelivers,
      sinkActivity: graph.followedSink.map { graph.activity(onSink: $0) })
  }

  /// What json's `source` says is recorded: the player's stream nodes, or the followed sink's
  /// monitor (and why, when a player is there), nothing before a sink is followed.
  func describedSource(_ followedSinkName: String?) -> String {
    if case .output = target, followedSinkName == nil { return "" }
    return target.describe(streamKind: "node", output: (followedSinkName ?? "") + ".monitor")
  }

  /// The player's streams are recorded: they are what plays.
  private var recordsPlayer: Bool {
    if case .player = target { return !playerStreams.isEmpty }
    return false
  }

  /// Makes a capture stream on stream node `node`; false when it cannot (the node is marked
  /// failed until it changes, so the output is recorded meanwhile).
  private func open(_ node: UInt32, _ around: Surroundings) -> Bool {
    guard let serial = around.graph.stream(node)?.serial else {
      return markFailed(node, "node \(node) has no serial")
    }
    let key = nextKey
    nextKey &+= 1
    let opened = PipeWirePlayerStream.open(
      node: node, serial: serial, core: around.core, sampleRate: sampleRate,
      process: { stream in
        PipeWirePlayerProcess(
          stream: stream, key: key, channels: around.channels, buffer: buffer,
          handOver: handOver, reconcileTimer: around.reconcileTimer)
      }, threadLoop: threadLoop, debug: debug)
    switch opened {
    case .success(let recording):
      playerStreams.append(recording)
      debug?("PipeWire: recording node \(node) (object.serial \(serial))")
      return true
    case .failure(let failure):
      return markFailed(node, failure.reason)
    }
  }

  /// Notes a node that cannot be recorded alone; it is tried again once it changes.
  private func markFailed(_ node: UInt32, _ reason: String) -> Bool {
    debug?("PipeWire: \(reason); recording the output instead")
    failedNodes.insert(node)
    return false
  }

  /// Destroys one of the player's capture streams.
  private func close(_ recording: PipeWirePlayerStream) {
    recording.destroy()
    playerStreams.removeAll { $0 === recording }
    debug?("PipeWire: no longer recording node \(recording.node)")
  }

  /// Closes every player stream (a reload's new format, a lost connection, the end); with
  /// `forgettingFailures`, every node may be tried again (the graph is gone).
  func closeAll(forgettingFailures: Bool = false) {
    threadLoop.assertLocked("PipeWirePlayerScope")
    for recording in playerStreams { close(recording) }
    handOver.mixing.withLock { $0.reset(keys: []) }
    handOver.delivering.store(false, ordering: .releasing)
    if forgettingFailures { failedNodes.removeAll() }
  }
}

internal import CPipeWire
import PulseBarCore

/// What is recorded on one PipeWire core, the part of ``PipeWireConnection`` that lives on it,
/// and the owner of the parts that decide and record:
/// - ``PipeWireGraphWatch``: the registry, the bound stream nodes and the `default` metadata,
///   which feed ``PipeWireGraph``; it says what changed (``graphChanged(_:)``);
/// - ``PipeWireMonitorStream``: the capture stream on the default sink's monitor;
/// - ``PipeWirePlayerScope``: what is recorded (`input.scope`) and the capture streams on the
///   active player's stream nodes; its reconcile returns what this object publishes.
///
/// The parts know nothing of each other: this object hands each what it needs (values, the
/// graph, closures to itself), applies what they return, and tears them down in order (the
/// player's streams, the monitor stream, the graph). Loop-side, as the connection is.
final class PipeWireRecording: PipeWireCallbackTarget {
  private let threadLoop: PipeWireThreadLoop
  private let buffer: CaptureBuffer
  private let debug: CaptureLog?
  /// The channel count streams are connected with (a reload changes it).
  private(set) var channels: Int
  /// What the data thread shares with the parts.
  private let handOver: PipeWireHandOver
  private let watch: PipeWireGraphWatch
  private let monitor: PipeWireMonitorStream
  private let scope: PipeWirePlayerScope
  /// The core while connected, and whether its initial round trip is done (the graph is
  /// complete: nothing is published before, so a connection does not flap through
  /// half-enumerated states).
  private var core: OpaquePointer?
  private var synced = false
  /// The sink whose monitor is published as the source (its `node.name`).
  private var followedSinkName: String?
  /// Has the loop reconcile soon, outside a stream's own callback.
  private var reconcileTimer: PipeWireLoopTimer?
  /// Tells the owner the monitor stream failed: it makes it again after a back-off (set once,
  /// by the owner).
  var streamFailed: () -> Void = {}

  /// Made before `threadLoop` runs.
  init(
    threadLoop: PipeWireThreadLoop, settings: PipeWireSource.Settings, buffer: CaptureBuffer,
    log: @escaping CaptureLog, debug: CaptureLog?
  ) {
    self.threadLoop = threadLoop
    self.buffer = buffer
    self.debug = debug
    channels = settings.channels
    handOver = PipeWireHandOver(sampleRate: settings.sampleRate)
    watch = PipeWireGraphWatch(threadLoop: threadLoop)
    monitor = PipeWireMonitorStream(
      threadLoop: threadLoop, sampleRate: settings.sampleRate, buffer: buffer,
      handOver: handOver, log: log, debug: debug)
    scope = PipeWirePlayerScope(
      scope: settings.scope, sampleRate: settings.sampleRate, buffer: buffer,
      handOver: handOver, threadLoop: threadLoop, debug: debug)
    watch.changed = { [weak self] in self?.graphChanged($0) }
    monitor.failed = { [weak self] in self?.streamFailed() }
    reconcileTimer = .make(on: threadLoop.loop, data: userdata) { data, _ in
      PipeWireRecording.from(data).reconcileScope()
    }
  }

  /// Starts on `core`: listens to its registry; false when the core has none.
  func attach(to core: OpaquePointer) -> Bool {
    threadLoop.assertLocked("PipeWireRecording")
    self.core = core
    return watch.watchRegistry(of: core)
  }

  /// The core's initial round trip is done: the graph is complete, publish it.
  func synchronized() {
    threadLoop.assertLocked("PipeWireRecording")
    synced = true
    watch.listed = true
    graphChanged(PipeWireGraphWatch.Change())
  }

  /// Destroys the streams and the proxies, forgets the graph (the core is lost or ends).
  func detach() {
    threadLoop.assertLocked("PipeWireRecording")
    scope.closeAll(forgettingFailures: true)
    monitor.close()
    watch.unwatch()
    followedSinkName = nil
    core = nil
    synced = false
  }

  /// Makes the monitor stream, active if something plays (again, after it failed); on failure
  /// the connection retries later.
  func openMonitor() {
    threadLoop.assertLocked("PipeWireRecording")
    guard let core, !monitor.isOpen else { return }
    let active = scope.monitorWanted(in: watch.graph)
    if !monitor.open(on: core, channels: channels, active: active) { streamFailed() }
  }

  /// Makes the monitor stream again at `channels` (a reload), and the player's streams: a
  /// stream's format is fixed when it is connected. The graph stays; the generation is bumped
  /// so the engine drops its history.
  func reformat(channels: Int) {
    threadLoop.assertLocked("PipeWireRecording")
    guard self.channels != channels else { return }
    self.channels = channels
    guard monitor.isOpen else { return }
    scope.closeAll()
    monitor.close()
    buffer.discardAll()
    if scope.monitorWanted(in: watch.graph) { buffer.markSourceSwitch() }
    buffer.updateStatus { $0.generation &+= 1 }
    openMonitor()
    // The player's streams again, at the new channel count.
    reconcileScope()
  }

  /// The active MPRIS player changed (or started or stopped playing): record what now belongs
  /// to it.
  func follow(player: PlayerAudioIdentity?) {
    if scope.follow(player: player) { reconcileScope() }
  }

  /// `input.scope` changed on a reload.
  func scopeChanged(_ scope: CaptureScope) {
    if self.scope.scopeChanged(scope) { reconcileScope() }
  }

  /// The graph changed (``PipeWireGraphWatch``): publishes what it now says, the followed
  /// sink's monitor (a new one bumps the generation and drops stale audio), then what is
  /// recorded (``reconcileScope()``).
  private func graphChanged(_ change: PipeWireGraphWatch.Change) {
    if let node = change.node { scope.forgetFailure(of: node) }
    if change.playedAtConnection { buffer.markSourceSwitch() }
    guard synced else { return }
    let graph = watch.graph
    let name = graph.followedSink == nil ? nil : graph.defaultSinkName
    if name != followedSinkName {
      followedSinkName = name
      debug?("PipeWire: following \(name.map { "the monitor of \($0)" } ?? "no sink")")
      // While the player's own streams deliver, the monitor's audio is not recorded: they play
      // on wherever the default goes, with no reset.
      if !handOver.playerDelivers {
        buffer.discardAll()
        // Amid sound the new monitor's first samples are no onset.
        if graph.followedSink.map({ graph.activity(onSink: $0) }) == .running {
          buffer.markSourceSwitch()
        }
        let described = scope.describedSource(name)
        buffer.updateStatus {
          $0.sourceName = described
          $0.generation &+= 1
        }
      }
    }
    reconcileScope()
  }

  /// Has the scope reconcile (``PipeWirePlayerScope/reconcile(_:)``) and publishes what it
  /// decided: the source, the activity, the monitor stream's activation.
  private func reconcileScope() {
    threadLoop.assertLocked("PipeWireRecording")
    guard synced, let core, let reconcileTimer else { return }
    let outcome = scope.reconcile(
      PipeWirePlayerScope.Surroundings(
        graph: watch.graph, followedSinkName: followedSinkName, core: core,
        channels: channels, reconcileTimer: reconcileTimer))
    buffer.updateStatus {
      $0.sourceName = outcome.sourceName
      $0.othersPlay = outcome.othersPlay
      $0.activity = outcome.activity
    }
    monitor.setActive(outcome.monitorActive, because: outcome.monitorReason)
  }

  /// Tears everything down for good, the reconcile timer last: a player stream's callback may
  /// arm it until the stream is gone.
  func shutdown() {
    threadLoop.assertLocked("PipeWireRecording")
    detach()
    reconcileTimer?.destroy()
    reconcileTimer = nil
  }
}

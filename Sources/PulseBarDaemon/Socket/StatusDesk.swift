import Glibc
import PulseBarCore
import PulseBarPlayers
import PulseBarSystem

/// The socket's `status` requests and their answers, on the engine's thread.
///
/// A client that asks is taken off the handler's list at once (it reads no frames) and its
/// connection waits here; the handler's next frame (``SocketHandler/service(now:)`` asks the
/// engine for one at once) answers every waiting client from what that frame shows, then
/// closes it. The meters count every frame.
package struct StatusDesk {
  /// Slots the handler keeps past `maxClients` where a client may only ask for the status (it
  /// gets `too many clients` when it subscribes): a full daemon can still say what is wrong.
  static let slots = 4
  package var facts = StatusFacts()
  /// Started at the first frame (the engine's start-up frame), on the engine's time.
  private(set) var meters: StatusMeters?
  private var waiting: [(descriptor: FileDescriptor, json: Bool)] = []

  /// True while a client waits for its answer.
  var isWaiting: Bool { !waiting.isEmpty }

  mutating func asked(_ descriptor: FileDescriptor, json: Bool) {
    waiting.append((descriptor, json))
  }

  /// A frame went out at its clock (the engine's time): counted, and every waiting client
  /// answered from it (`clients` and `broadcasts` are the handler's: who reads what), then
  /// closed.
  mutating func frame(
    _ pipeline: FramePipeline, _ info: FrameInfo, clients: [SocketClient?],
    broadcasts: SocketBroadcasts, scratch: UnsafeMutableRawBufferPointer
  ) {
    let now = info.clock ?? meters?.startedAt ?? 0
    if meters == nil {
      meters = StatusMeters(startedAt: now, cpu: StatusMeters.processCPUSeconds())
    }
    meters?.frame(at: now, cpu: StatusMeters.processCPUSeconds)
    guard isWaiting, let meters else { return }
    let status = status(
      pipeline, info, clients: clients, broadcasts: broadcasts, meters: meters, now: now)
    let (text, json) = (
      waiting.contains { !$0.json } ? status.text() : "",
      waiting.contains { $0.json } ? status.json() : ""
    )
    for request in waiting {
      request.descriptor.sendFinal(request.json ? json : text, scratch: scratch)
    }
    waiting.removeAll(keepingCapacity: true)
  }

  /// The daemon's status as this frame shows it.
  func status(
    _ pipeline: FramePipeline, _ info: FrameInfo, clients: [SocketClient?],
    broadcasts: SocketBroadcasts, meters: StatusMeters, now: Double
  ) -> DaemonStatus {
    let cpu = meters.cpuPercent(at: now, cpu: StatusMeters.processCPUSeconds())
    var readers: [Subscription: Int] = [:]
    for case let client? in clients {
      if let broadcast = client.broadcast, let subscription = broadcasts[broadcast]?.subscription {
        readers[subscription, default: 0] += 1
      }
    }
    let configuration = pipeline.configuration
    return DaemonStatus(
      version: CommandTable.version, uptime: now - meters.startedAt, configPath: facts.configPath,
      configExists: !facts.configPath.isEmpty && access(facts.configPath, F_OK) == 0,
      lastReloadAgo: facts.lastReload.map { now - $0.at }, lastReloadError: facts.lastReload?.error,
      input: ConfigKeys.setting(section: "input", key: "source")?.render(configuration) ?? "",
      source: info.source, connected: info.connected, state: pipeline.scene.state,
      player: pipeline.nowPlaying?.player, players: facts.playerRoster?.current ?? [],
      clients: clients.count { $0 != nil },
      readers: readers.map { DaemonStatus.Readers(subscription: $0.key, clients: $0.value) }
        .sorted { $0.subscription.description < $1.subscription.description },
      analysisRate: pipeline.frameRate, framesPerSecond: meters.framesPerSecond(at: now),
      cpuPercent: cpu.percent, cpuSeconds: cpu.seconds)
  }
}

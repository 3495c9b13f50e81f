import Glibc
import PulseBarCore
import PulseBarSystem

/// Serves rendered frames to the socket's clients, on the engine's thread, in the engine's
/// poll: no thread, lock or eventfd of its own. Confined to that thread (asserted in debug).
///
/// Its epoll set (the listener and the clients) is one descriptor in the engine's poll
/// (``wakeDescriptor``); the engine calls ``service(now:)`` when it is readable or a deadline
/// (``nextDeadline``) has passed, and ``deliver(pipeline:info:)`` once per frame.
///
/// - One record per client (``SocketClient``): descriptor, protocol state (``ClientProtocol``),
///   what it asked for, which subscription it reads and where (a cursor into that
///   subscription's ``LineHistory``), and the rest of a line a full socket cut short.
/// - One broadcast per distinct subscription (format, bars, fps) in ``SocketBroadcasts``: its last
///   lines. A frame's line is copied in once; every client of it writes from there.
/// - Sends never block: a client whose socket is full waits for `EPOLLOUT`; one that falls
///   behind its broadcast's history loses the oldest lines and goes on from the newest; one
///   that makes no progress for 5 s is dropped. The others never notice.
/// - A frame costs one pass over the clients (those without a backlog write at once).
package final class SocketHandler: FrameDelivery {
  /// Lines kept per subscription: how far a client may fall behind before it loses lines.
  package static let historyCapacity = 64
  package var statusDesk = StatusDesk()

  var listener: SocketListener
  let maxClients: Int
  /// How requests become subscriptions; replaced on a reload.
  var rules: SubscriptionRules
  let logger: Logger
  let epoll: Epoll
  var clients: [SocketClient?]
  var broadcasts = SocketBroadcasts(historyCapacity: SocketHandler.historyCapacity)
  var nextSerial: UInt64 = 1
  let readBuffer = UnsafeMutableRawBufferPointer.allocate(
    byteCount: SocketClient.readSize, alignment: 1)
  /// The capture's rate, for the layout check of the rules a reload makes.
  private let sampleRate: Int
  private var confinement = ThreadConfinement()

  /// Changes whenever the set of distinct subscriptions does.
  package var keysVersion: UInt64 { broadcasts.version }
  /// Clients connected (subscribed or not yet).
  package internal(set) var clientCount = 0
  /// Lines clients lost by falling behind, since start.
  package internal(set) var droppedFrames = 0
  /// The engine's time as last handed in (``service(now:)``, a frame's clock): the socket's own.
  package private(set) var now = 0.0

  /// A handler for `listener` (bound, listening, non-blocking). `ownsPath` is the socket file
  /// to remove on ``stop()``.
  package init(
    listener: FileDescriptor, ownsPath: String?, configuration: Configuration,
    rules: SubscriptionRules, sampleRate: Int, logger: Logger = Logger()
  ) throws(Errno) {
    self.listener = SocketListener(listener, ownsPath: ownsPath)
    maxClients = max(1, configuration.maxClients)
    self.rules = rules
    self.sampleRate = sampleRate
    self.logger = logger
    epoll = try Epoll()
    clients = Array(repeating: nil, count: maxClients + StatusDesk.slots)
  }

  deinit { readBuffer.deallocate() }

  // MARK: - Life

  /// Starts accepting clients.
  package func start() throws(Errno) { try listener.start(epoll) }

  /// Closes every client and the listener; removes the socket file it owns. Idempotent.
  package func stop() {
    confinement.check("SocketHandler")
    for slot in clients.indices { close(slot, "the daemon stops") }
    listener.stop(epoll)
  }

  // MARK: - FrameDelivery

  package var wakeDescriptor: FileDescriptor? { epoll.pollDescriptor }

  package var wantedKeys: [ConsumerKey] { broadcasts.subscriptions }

  /// The earliest deadline of a client (its subscription line, a stuck backlog) or of the
  /// paused listener (monotonic seconds).
  package var nextDeadline: Double? {
    guard let paused = listener.pausedUntil else { return clients.earliestDeadline }
    return min(paused, clients.earliestDeadline ?? paused)
  }

  /// Handles what is ready (connections, subscription lines, writable sockets) and the
  /// deadlines that passed. True when the subscriptions changed, so the engine renders a frame
  /// for the new ones, or a client asked for the status, which that frame answers.
  package func service(now: Double) -> Bool {
    confinement.check("SocketHandler")
    self.now = now
    let version = keysVersion
    try? epoll.wait(timeoutMilliseconds: 0) { token, events in handle(token, events) }
    if let deadline = nextDeadline, deadline <= now { applyDeadlines(now: now) }
    return keysVersion != version || statusDesk.isWaiting
  }

  /// Copies each subscription's line of this frame into its history, then writes to every
  /// client that has no backlog.
  package func deliver(pipeline: FramePipeline, info: FrameInfo) -> Bool {
    confinement.check("SocketHandler")
    if let clock = info.clock { now = clock }
    for index in broadcasts.indices {
      // Read apart, so no copy of the broadcast holds its history while a line is appended.
      guard let subscription = broadcasts[index]?.subscription,
        let isNew = broadcasts[index]?.history.isEmpty,
        let consumer = pipeline.consumerIndex(of: subscription)
      else { continue }
      // A new subscription's first line is the consumer's current one, changed or not.
      let line = isNew ? pipeline.currentLine(consumer) : pipeline.changedLine(consumer)
      line?.withUnsafeBytes { broadcasts.append($0, to: index) }
    }
    flushClients()
    statusDesk.frame(pipeline, info, clients: clients, broadcasts: broadcasts, scratch: readBuffer)
    return true
  }

  /// Appends `line` to `subscription`'s history and writes it out, as a frame does (for a
  /// caller without a pipeline: the tests, a bench).
  func publish(_ subscription: Subscription, line: UnsafeRawBufferPointer) {
    guard let index = broadcasts.index(of: subscription) else { return }
    broadcasts.append(line, to: index)
    flushClients()
  }

  /// The frame's one pass over the clients: each without a backlog writes what it lacks; one
  /// with a backlog that fell behind its broadcast's history loses the lines it missed now (it
  /// goes on from the newest once its socket drains).
  private func flushClients() {
    for slot in clients.indices {
      guard let client = clients[slot], let broadcast = client.broadcast else { continue }
      if !client.interest.contains(.writable) {
        flush(slot)
      } else if let history = broadcasts[broadcast]?.history {
        droppedFrames += clients[slot]!.skipLost(in: history)
      }
    }
  }

  /// A reload: the rules follow the new config, and every subscribed client's request is
  /// resolved again under them before the new pipeline's first frame. A request that still
  /// makes a valid subscription moves to it (a new default bar count, say); one that does not
  /// (an explicit `bars=7` after a switch to stereo) gets its `error: …` line and is closed.
  /// Lines rendered under the old config that a client has not yet been sent are skipped, so
  /// the first line each client gets after a reload is the new config's.
  package func configurationChanged(_ configuration: Configuration) {
    confinement.check("SocketHandler")
    rules = DaemonSocket.rules(configuration: configuration, sampleRate: sampleRate)
    for slot in clients.indices {
      guard let request = clients[slot]?.request else { continue }
      switch rules.subscription(for: request) {
      case .failure(let problem):
        logger.info("socket: a client's \(request) no longer fits the config: \(problem)")
        apply(.reject("error: \(problem)\n"), slot)
      case .success(let subscription):
        broadcasts.attach(&clients[slot]!, to: subscription)
        if let broadcast = clients[slot]?.broadcast, let history = broadcasts[broadcast]?.history {
          clients[slot]!.cursor = history.nextSequence
        }
      }
    }
  }
}

import Glibc
import PulseBarCore
import PulseBarSystem

/// Serves rendered frames to the socket's clients, on the engine's thread, in the engine's
/// poll: no thread, lock or eventfd of its own.
///
/// Its epoll set (the listener and the clients) is one descriptor in the engine's poll
/// (``wakeDescriptor``); the engine calls ``service(now:)`` when it is readable or a deadline
/// (``nextDeadline``) has passed, and ``deliver(pipeline:info:)`` once per frame.
///
/// - One record per client (``Client``): descriptor, protocol state (``ClientProtocol``), what
///   it asked for, which subscription it reads and where (a cursor into that subscription's
///   ``LineHistory``), and the rest of a line a full socket cut short.
/// - One ``Channel`` per distinct subscription (format, bars, fps): its last lines. A frame's
///   line is copied in once; every client of it writes from there.
/// - Sends never block: a client whose socket is full waits for `EPOLLOUT`; one that falls
///   behind its channel's history loses the oldest lines and goes on from the newest; one
///   that makes no progress for 5 s is dropped. The others never notice.
/// - A frame costs one pass over the clients (those without a backlog write at once).
package final class SocketHandler: FrameDelivery {
  /// One subscription's lines and how many clients read them.
  struct Channel {
    var subscription: Subscription
    var history: LineHistory
    var clients: Int
  }

  /// One connected client.
  struct Client {
    var descriptor: FileDescriptor
    var generation: UInt64
    var session: ClientProtocol
    var interest: Epoll.Events
    /// What the client asked for, once it has subscribed: resolved again on every reload.
    var request: SubscriptionRequest?
    /// The channel it reads, once subscribed.
    var channel: Int?
    /// The sequence number of the next line it gets from its channel.
    var cursor: UInt64 = 0
    /// The unsent rest of a line a full socket cut short (written before anything else).
    var leftover: [UInt8] = []
    var leftoverOffset = 0
  }

  /// Lines kept per subscription: how far a client may fall behind before it loses lines.
  package static let historyCapacity = 64
  static let listenerToken: UInt64 = 0
  static let firstClientToken: UInt64 = 16
  /// Bytes read from a client per `read`; the subscription line is at most 257.
  static let readSize = 512

  let listener: FileDescriptor
  /// The socket file removed on ``stop()``; `nil` when systemd owns it.
  let ownsPath: String?
  let maxClients: Int
  /// How requests become subscriptions; replaced on a reload.
  var rules: SubscriptionRules
  let logger: Logger
  let epoll: Epoll
  var clients: [Client?]
  var channels: [Channel?] = []
  var nextGeneration: UInt64 = 1
  /// Set while accepting is paused after EMFILE and the like.
  var listenerPausedUntil: UInt64?
  let readBuffer = UnsafeMutableRawBufferPointer.allocate(
    byteCount: SocketHandler.readSize, alignment: 1)
  /// The capture's rate, for the layout check of the rules a reload makes.
  private let sampleRate: Int

  /// Changes whenever the set of distinct subscriptions does.
  package private(set) var keysVersion: UInt64 = 0
  /// Clients connected (subscribed or not yet).
  package internal(set) var clientCount = 0
  /// Lines clients lost by falling behind, since start.
  package internal(set) var droppedFrames = 0

  /// A handler for `listener` (bound, listening, non-blocking). `ownsPath` is the socket file
  /// to remove on ``stop()``.
  package init(
    listener: FileDescriptor, ownsPath: String?, configuration: Configuration,
    rules: SubscriptionRules, sampleRate: Int, logger: Logger = Logger()
  ) throws(Errno) {
    self.listener = listener
    self.ownsPath = ownsPath
    maxClients = max(1, configuration.maxClients)
    self.rules = rules
    self.sampleRate = sampleRate
    self.logger = logger
    epoll = try Epoll()
    clients = Array(repeating: nil, count: maxClients)
  }

  deinit { readBuffer.deallocate() }

  // MARK: - Life

  /// Starts accepting clients.
  package func start() throws(Errno) {
    try epoll.add(listener, .readable, token: Self.listenerToken)
  }

  /// Closes every client and the listener; removes the socket file it owns. Idempotent.
  package func stop() {
    for slot in clients.indices { close(slot, "the daemon stops") }
    epoll.remove(listener)
    listener.closeQuietly()
    if let ownsPath { unlink(ownsPath) }
  }

  // MARK: - FrameDelivery

  package var wakeDescriptor: FileDescriptor? { epoll.pollDescriptor }

  package var wantedKeys: [ConsumerKey] { channels.compactMap { $0?.subscription } }

  /// The earliest deadline of a client (its subscription line, a stuck backlog) or of the
  /// paused listener, in monotonic nanoseconds.
  package var nextDeadline: UInt64? {
    var earliest = listenerPausedUntil
    for client in clients {
      guard let deadline = client?.session.nextDeadline else { continue }
      earliest = min(earliest ?? deadline, deadline)
    }
    return earliest
  }

  /// Handles what is ready (connections, subscription lines, writable sockets) and the
  /// deadlines that passed. True when the subscriptions changed, so the engine renders a frame
  /// for the new ones.
  package func service(now: UInt64) -> Bool {
    let version = keysVersion
    try? epoll.wait(timeoutMilliseconds: 0) { token, events in handle(token, events) }
    if let deadline = nextDeadline, deadline <= now { applyDeadlines(now: now) }
    return keysVersion != version
  }

  /// Copies each subscription's line of this frame into its history, then writes to every
  /// client that has no backlog.
  package func deliver(pipeline: FramePipeline, info: FrameInfo) -> Bool {
    for index in channels.indices {
      guard let channel = channels[index],
        let consumer = pipeline.consumerIndex(of: channel.subscription)
      else { continue }
      // A new subscription's first line is the consumer's current one, changed or not.
      let line =
        channel.history.isEmpty ? pipeline.currentLine(consumer) : pipeline.changedLine(consumer)
      line?.withUnsafeBytes { channels[index]!.history.append($0) }
    }
    flushClients()
    return true
  }

  /// Appends `line` to `subscription`'s history and writes it out, as a frame does (for a
  /// caller without a pipeline: the tests, a bench).
  func publish(_ subscription: Subscription, line: UnsafeRawBufferPointer) {
    guard let index = channels.firstIndex(where: { $0?.subscription == subscription }) else {
      return
    }
    channels[index]!.history.append(line)
    flushClients()
  }

  /// The frame's one pass over the clients: each without a backlog writes what it lacks; one
  /// with a backlog that fell behind its channel's history loses the lines it missed now (it
  /// goes on from the newest once its socket drains).
  private func flushClients() {
    for slot in clients.indices {
      guard let client = clients[slot], let channel = client.channel else { continue }
      if !client.interest.contains(.writable) {
        flush(slot)
      } else if client.cursor < channels[channel]!.history.oldestSequence {
        let newest = channels[channel]!.history.newestSequence
        droppedFrames += Int(newest - client.cursor)
        clients[slot]!.cursor = newest
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
    rules = DaemonSocket.rules(configuration: configuration, sampleRate: sampleRate)
    for slot in clients.indices {
      guard let request = clients[slot]?.request else { continue }
      switch rules.subscription(for: request) {
      case .failure(let problem):
        logger.info("socket: a client's \(request) no longer fits the config: \(problem)")
        apply(.reject("error: \(problem)\n"), slot)
      case .success(let subscription):
        attach(slot, to: subscription)
        if let channel = clients[slot]?.channel {
          clients[slot]!.cursor = channels[channel]!.history.nextSequence
        }
      }
    }
  }

  // MARK: - Subscriptions

  /// Client `slot` reads `subscription` from now on: the subscription's latest line at once
  /// when it has one, else its first.
  func attach(_ slot: Int, to subscription: Subscription) {
    if let current = clients[slot]?.channel {
      guard channels[current]?.subscription != subscription else { return }
      detach(slot)
    }
    let index: Int
    if let existing = channels.firstIndex(where: { $0?.subscription == subscription }) {
      index = existing
      channels[index]!.clients += 1
    } else {
      let channel = Channel(
        subscription: subscription, history: LineHistory(capacity: Self.historyCapacity),
        clients: 1)
      if let free = channels.firstIndex(where: { $0 == nil }) {
        index = free
        channels[free] = channel
      } else {
        index = channels.count
        channels.append(channel)
      }
      keysVersion &+= 1
    }
    let history = channels[index]!.history
    clients[slot]!.channel = index
    clients[slot]!.cursor = history.isEmpty ? 0 : history.newestSequence
  }

  /// Client `slot` reads nothing any more; the last client of a subscription ends it.
  func detach(_ slot: Int) {
    guard let index = clients[slot]?.channel else { return }
    clients[slot]!.channel = nil
    channels[index]!.clients -= 1
    if channels[index]!.clients == 0 {
      channels[index] = nil
      keysVersion &+= 1
    }
  }
}

import Glibc
import PulseBarCore
import Synchronization

/// Serves rendered frames to any number of Unix-socket clients from one epoll thread.
///
/// The engine thread calls ``publish(_:line:)`` with each subscription's new line. That never
/// blocks on a client: it takes a mutex for a few copies into preallocated per-client rings
/// (dropping the oldest line when one is full) and wakes the loop through an eventfd. The loop
/// thread (``SocketLoop``) accepts, reads subscription lines, and writes without blocking.
///
/// Each client has two rings of ``queueCapacity`` lines: an inbox the engine fills under the
/// mutex and an outbox the loop writes from without it; the loop swaps them when its outbox is
/// empty, so a stalled client holds at most two rings' worth of lines.
///
/// When ``subscriptionsVersion`` changes the engine should publish the current line of every
/// subscription it has not published since: a client of a brand-new subscription has nothing
/// to show until then (clients of an existing one get its latest line at once).
package final class SocketServer: Sendable {
  /// Lines queued per client (each of inbox and outbox).
  package static let queueCapacity = 64

  let listener: FileDescriptor
  let ownsPath: String?
  let maxClients: Int
  let defaultSubscription: Subscription
  let logger: Logger
  let wakeDescriptor: FileDescriptor
  let shared: Mutex<SharedState>
  let onSubscriptionsChanged: (@Sendable () -> Void)?
  let validate: (@Sendable (Subscription) -> String?)?
  private let version = Atomic<UInt64>(0)
  let connectedClients = Atomic<Int>(0)
  let droppedLines = Atomic<Int>(0)
  /// Set by publishers before writing the eventfd, cleared by the loop before draining inboxes,
  /// so a burst of publishes costs one wake-up.
  let wakePending = Atomic<Bool>(false)
  let stopRequested = Atomic<Bool>(false)
  private let thread = Mutex<PosixThread?>(nil)

  /// State shared between the engine (publish) and the loop; only under ``shared``'s lock.
  struct SharedState {
    /// Per client slot: what it subscribed to and the lines waiting for the loop.
    var inboxes: ContiguousArray<Inbox>
    /// Clients per distinct subscription.
    var subscriberCounts: [Subscription: Int] = [:]
    /// Each subscription's last published line, sent at once to a client that subscribes.
    var latest: [Subscription: [UInt8]] = [:]
  }

  /// One client slot's side of the queue that the engine fills.
  struct Inbox {
    var subscription: Subscription?
    var lines: LineRing
  }

  /// A server on `listener` (bound and listening, non-blocking). `ownsPath` is the socket file
  /// to remove on ``stop()``; `nil` when systemd owns it. `onSubscriptionsChanged` is called
  /// on the loop thread whenever ``subscriptionsVersion`` changes (to wake an idle engine).
  /// `validate` vets a subscription the line syntax allows but the engine cannot serve (odd
  /// bars in stereo): it returns the reason, sent as `error: <reason>`, or `nil`.
  package init(
    listener: FileDescriptor, ownsPath: String?, configuration: Configuration,
    defaultSubscription: Subscription, logger: Logger = Logger(),
    validate: (@Sendable (Subscription) -> String?)? = nil,
    onSubscriptionsChanged: (@Sendable () -> Void)? = nil
  ) {
    self.validate = validate
    self.listener = listener
    self.ownsPath = ownsPath
    self.maxClients = max(1, configuration.maxClients)
    self.defaultSubscription = defaultSubscription
    self.logger = logger
    self.onSubscriptionsChanged = onSubscriptionsChanged
    do {
      wakeDescriptor = try EventDescriptor.make()
    } catch {
      fatalError("eventfd: \(error)")
    }
    let inbox = Inbox(subscription: nil, lines: LineRing(capacity: Self.queueCapacity))
    shared = Mutex(
      SharedState(
        inboxes: ContiguousArray(repeating: inbox, count: max(1, configuration.maxClients))))
  }

  deinit {
    wakeDescriptor.closeQuietly()
  }

  // MARK: - Life

  /// Starts the event loop thread.
  package func start() {
    thread.withLock { thread in
      guard thread == nil, !stopRequested.load(ordering: .acquiring) else { return }
      thread = PosixThread.spawn { [self] in
        do {
          try SocketLoop(server: self).run()
        } catch {
          logger.error("socket server: \(error)")
        }
      }
    }
  }

  /// Closes every client and the listener, removes the socket file it owns, and waits for the
  /// loop thread. Idempotent.
  package func stop() {
    guard !stopRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
    EventDescriptor.signal(wakeDescriptor)
    if let running = thread.withLock({ $0.take() }) {
      running.join()
    } else {
      closeListener()
    }
  }

  /// Closes the listener and removes the socket file this server owns.
  func closeListener() {
    listener.closeQuietly()
    if let ownsPath { unlink(ownsPath) }
  }

  // MARK: - Engine side

  /// Changes whenever the set of distinct subscriptions changes.
  package var subscriptionsVersion: UInt64 { version.load(ordering: .acquiring) }

  /// The distinct subscriptions of the current clients.
  package func subscriptions() -> [Subscription] {
    shared.withLock { Array($0.subscriberCounts.keys) }
  }

  /// Clients connected (subscribed or not yet).
  package var clientCount: Int { connectedClients.load(ordering: .relaxed) }

  /// Lines dropped from full client queues since start.
  package var droppedFrames: Int { droppedLines.load(ordering: .relaxed) }

  /// Queues `line` (one rendered frame ending in `\n`) for every client of `subscription` and
  /// keeps it as that subscription's latest. Never blocks on a client.
  package func publish(_ subscription: Subscription, line: UnsafeRawBufferPointer) {
    let (delivered, dropped) = shared.withLock { state -> (Bool, Int) in
      guard state.subscriberCounts[subscription] != nil else { return (false, 0) }
      state.latest[subscription, default: []].removeAll(keepingCapacity: true)
      state.latest[subscription, default: []].append(contentsOf: line)
      var dropped = 0
      for index in state.inboxes.indices where state.inboxes[index].subscription == subscription {
        if state.inboxes[index].lines.push(line) { dropped += 1 }
      }
      return (true, dropped)
    }
    if dropped > 0 { droppedLines.add(dropped, ordering: .relaxed) }
    if delivered && !wakePending.exchange(true, ordering: .acquiringAndReleasing) {
      EventDescriptor.signal(wakeDescriptor)
    }
  }

  // MARK: - Loop side

  /// Records that client `slot` subscribed; queues the subscription's latest line for it.
  func attach(slot: Int, to subscription: Subscription) {
    let isNew = shared.withLock { state -> Bool in
      state.inboxes[slot].subscription = subscription
      state.inboxes[slot].lines.removeAll()
      if let latest = state.latest[subscription] { state.inboxes[slot].lines.push(latest) }
      state.subscriberCounts[subscription, default: 0] += 1
      return state.subscriberCounts[subscription] == 1
    }
    if isNew { subscriptionsChanged() }
  }

  /// Forgets client `slot`'s subscription and queued lines.
  func detach(slot: Int) {
    let wasLast = shared.withLock { state -> Bool in
      let subscription = state.inboxes[slot].subscription
      state.inboxes[slot].subscription = nil
      // Its lines' memory goes too: kept, a slot would hold the widest lines any client of it
      // ever queued (up to 64 of them per ring), and the daemon's memory would only grow.
      state.inboxes[slot].lines.removeAll(keepingCapacity: false)
      guard let subscription, let count = state.subscriberCounts[subscription] else { return false }
      if count > 1 {
        state.subscriberCounts[subscription] = count - 1
        return false
      }
      state.subscriberCounts[subscription] = nil
      state.latest[subscription] = nil
      return true
    }
    if wasLast { subscriptionsChanged() }
  }

  private func subscriptionsChanged() {
    version.add(1, ordering: .releasing)
    onSubscriptionsChanged?()
  }
}

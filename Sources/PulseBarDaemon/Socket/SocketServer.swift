import Glibc
import PulseBarCore
import PulseBarSystem
import Synchronization

// MARK: - How a frame reaches a socket client
//
// One owner per piece of state (STYLE.md). The socket module's pieces and what each owns:
//
//   ClientProtocol        one client's protocol as a pure state machine: where it is in its
//                         life (awaiting its line, subscribed, closed), deadlines, backlog.
//                         It parses the subscription line and hands the result on in
//                         `.subscribe(…)`; it keeps no copy.
//   SubscriptionRegistry  the only record of subscriptions: per client slot its subscription
//                         and queued lines; per distinct (format, bars, fps) its client count
//                         and latest line. Owned by SocketServer behind one mutex.
//   SocketServer          the registry, the listener, the wake-up eventfd, the loop thread.
//   SocketLoop            the loop thread's epoll I/O: accepts, reads, writes from per-slot
//                         outboxes. Its per-client record is the descriptor and protocol state.
//   SocketDelivery        the engine's side: names the registry's subscriptions to the pipeline
//                         as consumers, and publishes each frame's lines into the registry.
//
// The flow of one frame:
//
//   1. A client connects; SocketLoop feeds its bytes to ClientProtocol, which answers
//      `.subscribe(s)` (or the default after 100 ms). SocketLoop vets it (`validate`) and calls
//      `SocketServer.attach(slot:to:)`: the registry records the slot's subscription, queues the
//      subscription's latest line when it has one, and says whether `s` is new.
//   2. A new subscription bumps `subscriptionsVersion` and signals SocketDelivery's eventfd, so
//      an idle engine wakes. The engine sees the version change, asks SocketDelivery for its
//      `wantedKeys` (read from the registry) and registers them with the FramePipeline, which
//      renders each distinct (format, bars, fps) once per frame it is due.
//   3. After rendering, SocketDelivery calls `SocketServer.publishFrame`: under the mutex, for
//      each registry entry, the frame's line for it (changed this frame, or, for an entry that
//      has never had a line, the consumer's current line) is copied once into the entry's
//      latest line and into each subscriber's inbox. The first line a new subscriber sees
//      therefore always comes from the registry: the entry's latest line at once, or the first
//      line published into a brand-new entry.
//   4. The publish signals the loop's eventfd (once per burst). The loop swaps each idle
//      client's inbox with its outbox under the mutex and writes outside it, never blocking;
//      a client that stops reading loses its oldest lines, then is dropped after 5 s stuck.
//   5. When a client leaves, `detach(slot:)` forgets its slot; the last client of a subscription
//      removes its entry and bumps the version, and the engine drops consumers nobody reads.
//
// The rendered line of a (format, bars, fps) is its pipeline consumer's line: written once per
// frame by its renderer, then only read, by stdout, the terminal view and this module alike.
// The registry copies it (into the entry's latest line and the subscribers' rings) instead of
// sharing one reference-counted buffer, because those copies go into storage allocated once,
// and a fresh immutable buffer per frame and subscription would allocate on every frame.

/// Serves rendered frames to any number of Unix-socket clients from one epoll thread.
///
/// The engine thread publishes lines (``publishFrame(_:)``, ``publish(_:line:)``). That never
/// blocks on a client: it takes a mutex for a few copies into preallocated per-client rings
/// (dropping the oldest line when one is full) and wakes the loop through an eventfd. The loop
/// thread (``SocketLoop``) accepts, reads subscription lines, and writes without blocking.
///
/// Each client has two rings of ``queueCapacity`` lines: an inbox in the registry that the
/// engine fills under the mutex and an outbox the loop writes from without it; the loop swaps
/// them when its outbox is empty, so a stalled client holds at most two rings' worth of lines.
package final class SocketServer: Sendable {
  /// Lines queued per client (each of inbox and outbox).
  package static let queueCapacity = 64

  let listener: FileDescriptor
  let ownsPath: String?
  let maxClients: Int
  /// The daemon's frame rate at start: a client's `fps=` above it gets this rate.
  let maxFPS: Int
  let defaultSubscription: Subscription
  let logger: Logger
  let wakeDescriptor: FileDescriptor
  /// The subscription registry: the only record of who gets which lines.
  let registry: Lock<SubscriptionRegistry>
  let onSubscriptionsChanged: (@Sendable () -> Void)?
  let validate: (@Sendable (Subscription) -> String?)?
  /// Counts changes of the registry's set of subscriptions, so the engine checks it each frame
  /// without the mutex.
  private let version = Atomic<UInt64>(0)
  let connectedClients = Atomic<Int>(0)
  let droppedLines = Atomic<Int>(0)
  /// Set by publishers before writing the eventfd, cleared by the loop before draining inboxes,
  /// so a burst of publishes costs one wake-up.
  let wakePending = Atomic<Bool>(false)
  let stopRequested = Atomic<Bool>(false)
  private let thread = Lock<PosixThread?>(nil)

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
    self.maxFPS = configuration.fps
    self.defaultSubscription = defaultSubscription
    self.logger = logger
    self.onSubscriptionsChanged = onSubscriptionsChanged
    do {
      wakeDescriptor = try EventDescriptor.make()
    } catch {
      fatalError("eventfd: \(error)")
    }
    registry = Lock(
      SubscriptionRegistry(slotCount: configuration.maxClients, queueCapacity: Self.queueCapacity))
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
    registry.withLock { $0.subscriptions }
  }

  /// Clients connected (subscribed or not yet).
  package var clientCount: Int { connectedClients.load(ordering: .relaxed) }

  /// Lines dropped from full client queues since start.
  package var droppedFrames: Int { droppedLines.load(ordering: .relaxed) }

  /// Publishes one frame: for every subscription, `lineFor(subscription, needsFirstLine)` gives
  /// the line to publish, or `nil` for none. `needsFirstLine` is true for a subscription that
  /// has never had a line (its current line is wanted even if this frame did not change it).
  /// Called on the engine thread, under the mutex; never blocks on a client.
  package func publishFrame(_ lineFor: (Subscription, _ needsFirstLine: Bool) -> ByteLine?) {
    let (delivered, dropped) = registry.withLock { registry -> (Bool, Int) in
      var delivered = false
      var dropped = 0
      for index in registry.entries.indices {
        let entry = registry.entries[index]
        guard let line = lineFor(entry.subscription, !entry.hasLatest) else { continue }
        dropped += line.withUnsafeBytes { registry.publish(entry: index, line: $0) }
        delivered = true
      }
      return (delivered, dropped)
    }
    finishPublishing(delivered: delivered, dropped: dropped)
  }

  /// Queues `line` (one rendered frame ending in `\n`) for every client of `subscription` and
  /// keeps it as that subscription's latest. Never blocks on a client.
  package func publish(_ subscription: Subscription, line: UnsafeRawBufferPointer) {
    let (delivered, dropped) = registry.withLock { $0.publish(subscription, line: line) }
    finishPublishing(delivered: delivered, dropped: dropped)
  }

  private func finishPublishing(delivered: Bool, dropped: Int) {
    if dropped > 0 { droppedLines.add(dropped, ordering: .relaxed) }
    if delivered && !wakePending.exchange(true, ordering: .acquiringAndReleasing) {
      EventDescriptor.signal(wakeDescriptor)
    }
  }

  // MARK: - Loop side

  /// Records that client `slot` subscribed; queues the subscription's latest line for it.
  func attach(slot: Int, to subscription: Subscription) {
    if registry.withLock({ $0.attach(slot: slot, to: subscription) }) { subscriptionsChanged() }
  }

  /// Forgets client `slot`'s subscription (if any) and queued lines.
  func detach(slot: Int) {
    if registry.withLock({ $0.detach(slot: slot) }) { subscriptionsChanged() }
  }

  private func subscriptionsChanged() {
    version.add(1, ordering: .releasing)
    onSubscriptionsChanged?()
  }
}

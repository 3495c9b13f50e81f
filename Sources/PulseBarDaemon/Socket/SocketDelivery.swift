import PulseBarCore

/// The engine's side of the socket server: registers the clients' distinct subscriptions as
/// pipeline consumers and publishes each one's line when it changed.
///
/// A subscription publishes its consumer's line when this frame changed it; a subscription
/// new to this delivery publishes the current line even when the scene stands still (stdout
/// may have registered the same consumer long before). The engine also
/// polls ``wakeDescriptor``, which the server signals when the subscriptions change, so an
/// idle engine renders a new client's first line at once. Confined to the engine thread.
package final class SocketDelivery: FrameDelivery {
  /// The server; `run` starts it once capture runs and stops it on exit.
  package let server: SocketServer
  private let wake: FileDescriptor
  private var subscriptions: [Subscription] = []
  private var seenVersion: UInt64 = .max
  /// Subscriptions that have published at least one line.
  private var published: Set<Subscription> = []

  /// A delivery to `server`, which must be created with `onSubscriptionsChanged` calling
  /// `EventDescriptor.signal` on `wake` (``make(_:)`` does that).
  package init(wake: FileDescriptor, server: SocketServer) {
    self.wake = wake
    self.server = server
  }

  deinit { wake.closeQuietly() }

  /// Creates the eventfd and the server around it (`build` gets the change callback).
  package static func make(
    _ build: (_ onSubscriptionsChanged: @escaping @Sendable () -> Void) -> SocketServer
  ) throws(Errno) -> SocketDelivery {
    let wake = try EventDescriptor.make()
    let server = build { EventDescriptor.signal(wake) }
    return SocketDelivery(wake: wake, server: server)
  }

  /// Readable when the subscriptions changed; the engine drains it and delivers a frame.
  package var wakeDescriptor: Int32 { wake.rawValue }

  package var keysVersion: UInt64 { server.subscriptionsVersion }

  package var wantedKeys: [ConsumerKey] {
    refresh()
    return subscriptions.map(\.consumerKey)
  }

  package func deliver(pipeline: FramePipeline, info: FrameInfo) -> Bool {
    EventDescriptor.drain(wake)
    refresh()
    for subscription in subscriptions {
      guard let index = pipeline.consumerIndex(of: subscription.consumerKey) else { continue }
      let isNew = !published.contains(subscription)
      guard let line = isNew ? pipeline.currentLine(index) : pipeline.changedLine(index) else {
        continue
      }
      if isNew { published.insert(subscription) }
      line.withUnsafeBytes { server.publish(subscription, line: $0) }
    }
    return true
  }

  /// Picks up a new set of subscriptions; forgets what was published for ones that left.
  private func refresh() {
    let version = server.subscriptionsVersion
    guard version != seenVersion else { return }
    seenVersion = version
    subscriptions = server.subscriptions()
    let current = Set(subscriptions)
    published.formIntersection(current)
  }
}

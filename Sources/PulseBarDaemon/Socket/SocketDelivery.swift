import PulseBarCore

/// The engine's side of the socket server: registers the clients' distinct subscriptions as
/// pipeline consumers and publishes each one's line when it changed.
///
/// "Changed" is judged here, against the last line this delivery published, rather than by
/// the renderer's own flag: stdout may share a consumer and see the change first, and a new
/// subscription needs the current line even when the scene stands still. The engine also
/// polls ``wakeDescriptor``, which the server signals when the subscriptions change, so an
/// idle engine renders a new client's first line at once. Confined to the engine thread.
package final class SocketDelivery: FrameDelivery {
  /// The server; `run` starts it once capture runs and stops it on exit.
  package let server: SocketServer
  private let wake: FileDescriptor
  private var subscriptions: [Subscription] = []
  private var seenVersion: UInt64 = .max
  /// Per subscription, the bytes last published (each buffer keeps its capacity).
  private var published: [Subscription: [UInt8]] = [:]

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
    return subscriptions.map { ConsumerKey(format: $0.format, bars: $0.bars) }
  }

  package func deliver(pipeline: FramePipeline, info: FrameInfo) -> Bool {
    EventDescriptor.drain(wake)
    refresh()
    for subscription in subscriptions {
      let key = ConsumerKey(format: subscription.format, bars: subscription.bars)
      guard let index = pipeline.consumerIndex(of: key) else { continue }
      _ = pipeline.render(index, info: info)
      guard let line = pipeline.lastLine(index) else { continue }
      if published[subscription] == line.bytes { continue }
      published[subscription, default: []].removeAll(keepingCapacity: true)
      published[subscription, default: []].append(contentsOf: line.bytes)
      line.bytes.withUnsafeBytes { server.publish(subscription, line: $0) }
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
    for subscription in published.keys where !current.contains(subscription) {
      published[subscription] = nil
    }
  }
}

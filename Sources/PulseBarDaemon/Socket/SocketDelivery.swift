import PulseBarCore
import PulseBarSystem

/// The engine's side of the socket server: names the registry's subscriptions to the pipeline
/// as consumers, and publishes each frame's lines into the registry (see the flow at the top
/// of `SocketServer.swift`).
///
/// It keeps no subscriptions of its own: the server's registry is their one record, and it
/// decides which subscriptions need a first line. The engine also polls ``wakeDescriptor``,
/// which the server signals when the subscriptions change, so an idle engine renders a new
/// client's first line at once. Confined to the engine thread.
package final class SocketDelivery: FrameDelivery {
  /// The server; `run` starts it once capture runs and stops it on exit.
  package let server: SocketServer
  private let wake: FileDescriptor
  /// The capture's rate, for the layout check of the rules a reload makes.
  private let sampleRate: Int

  /// A delivery to `server`, which must be created with `onSubscriptionsChanged` calling
  /// `EventDescriptor.signal` on `wake` (``make(sampleRate:_:)`` does that).
  package init(wake: FileDescriptor, server: SocketServer, sampleRate: Int) {
    self.wake = wake
    self.server = server
    self.sampleRate = sampleRate
  }

  deinit { wake.closeQuietly() }

  /// Creates the eventfd and the server around it (`build` gets the change callback);
  /// `sampleRate` is the capture's, for the layout check of a reload's rules.
  package static func make(
    sampleRate: Int,
    _ build: (_ onSubscriptionsChanged: @escaping @Sendable () -> Void) -> SocketServer
  ) throws(Errno) -> SocketDelivery {
    let wake = try EventDescriptor.make()
    let server = build { EventDescriptor.signal(wake) }
    return SocketDelivery(wake: wake, server: server, sampleRate: sampleRate)
  }

  /// A reload: the server's default, rate limit and layout check follow the new config, and
  /// its clients are resolved again (see ``SocketServer/updateRules(_:)``).
  package func configurationChanged(_ configuration: Configuration) {
    server.updateRules(DaemonSocket.rules(configuration: configuration, sampleRate: sampleRate))
  }

  /// Readable when the subscriptions changed; the engine drains it and delivers a frame.
  package var wakeDescriptor: FileDescriptor? { wake }

  package var keysVersion: UInt64 { server.subscriptionsVersion }

  package var wantedKeys: [ConsumerKey] { server.subscriptions() }

  package func deliver(pipeline: FramePipeline, info: FrameInfo) -> Bool {
    EventDescriptor.drain(wake)
    server.publishFrame { subscription, needsFirstLine in
      // A subscription whose consumer the engine has not registered yet waits a frame.
      guard let index = pipeline.consumerIndex(of: subscription) else { return nil }
      return needsFirstLine ? pipeline.currentLine(index) : pipeline.changedLine(index)
    }
    return true
  }
}

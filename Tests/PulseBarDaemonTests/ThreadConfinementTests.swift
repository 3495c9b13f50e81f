import PulseBarCore
import PulseBarSystem
import Testing

@testable import PulseBarDaemon

/// The engine, the socket handler and the terminal view and delivery are confined to one
/// thread: a debug build stops when one is used from another (each case runs in a child
/// process, which must fail).
@Suite struct ThreadConfinementTests {
  #if DEBUG
    /// A terminal view on no terminal, of a fixed size.
    static func view(_ configuration: Configuration) -> TerminalView {
      TerminalView(
        configuration: configuration, output: FileDescriptor(rawValue: -1),
        input: FileDescriptor(rawValue: -1), size: (24, 80))
    }

    @Test func theEngineUsedOffItsThreadStopsADebugBuild() async {
      await #expect(processExitsWith: .failure) {
        let engine = EmbeddedEngine()
        engine.advance(by: 0.1)
        PosixThread.spawn { engine.advance(by: 0.1) }.join()
      }
    }

    @Test func theSocketHandlerUsedOffItsThreadStopsADebugBuild() async {
      await #expect(processExitsWith: .failure) {
        try withTemporaryDirectory { directory in
          let path = directory + "/pulsebar.sock"
          let handler = try SocketHandler(
            listener: try UnixSocket.listen(path: path), ownsPath: path,
            configuration: Configuration(),
            rules: SubscriptionRules(
              defaultSubscription: Subscription(format: .json, bars: 8), maxFPS: 60),
            sampleRate: 44100, logger: Logger(journal: false))
          try handler.start()
          _ = handler.service(now: 0)
          PosixThread.spawn { _ = handler.service(now: 0) }.join()
        }
      }
    }

    @Test func theTerminalDeliveryUsedOffItsThreadStopsADebugBuild() async {
      await #expect(processExitsWith: .failure) {
        let configuration = Configuration()
        let view = Self.view(configuration)
        let delivery = TerminalDelivery(view: view, configuration: configuration)
        PosixThread.spawn { delivery.requestRedraw() }.join()
      }
    }

    @Test func theTerminalViewUsedOffItsThreadStopsADebugBuild() async {
      await #expect(processExitsWith: .failure) {
        let configuration = Configuration()
        let view = Self.view(configuration)
        view.reconfigure(configuration)
        PosixThread.spawn { view.reconfigure(configuration) }.join()
      }
    }

    @Test func bothUsedOnOneThreadRunOn() async {
      await #expect(processExitsWith: .success) {
        let engine = EmbeddedEngine()
        engine.advance(by: 0.1)
        engine.advance(by: 0.1)
      }
    }
  #endif
}

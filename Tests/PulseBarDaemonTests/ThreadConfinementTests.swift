import PulseBarCore
import PulseBarSystem
import Testing

@testable import PulseBarDaemon

/// The engine and the socket handler are confined to one thread: a debug build stops when
/// either is used from another (each case runs in a child process, which must fail).
@Suite struct ThreadConfinementTests {
  #if DEBUG
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

    @Test func bothUsedOnOneThreadRunOn() async {
      await #expect(processExitsWith: .success) {
        let engine = EmbeddedEngine()
        engine.advance(by: 0.1)
        engine.advance(by: 0.1)
      }
    }
  #endif
}

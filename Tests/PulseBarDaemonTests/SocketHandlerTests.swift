import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarSystem
import Testing

@testable import PulseBarDaemon

/// The socket handler in-process, over real Unix sockets, driven as the engine drives it: its
/// descriptor polled, ``SocketHandler/service(now:)`` called when it is ready or a deadline
/// passed, lines published frame by frame.
@Suite(.serialized) struct SocketHandlerTests {
  static let base = Subscription(format: .text, bars: 8)

  /// The handler and the engine's part, for a test.
  final class Driver {
    let handler: SocketHandler

    init(_ handler: SocketHandler) { self.handler = handler }

    /// Services the handler as the engine loop would, until `condition` holds (or 5 s pass).
    @discardableResult
    func pump(timeout: Double = 5, until condition: () -> Bool = { false }) -> Bool {
      let deadline = monotonicSeconds() + timeout
      var poll = PollSet()
      poll.add(handler.wakeDescriptor!)
      while !condition() {
        guard monotonicSeconds() < deadline else { return false }
        let now = monotonicSeconds()
        let wait = handler.nextDeadline.map { $0 <= now ? 0 : Int32(($0 - now) * 1000 + 1) }
        poll.wait(timeoutMilliseconds: min(wait ?? 5, 5))
        _ = handler.service(now: monotonicSeconds())
      }
      return true
    }

    /// Services for `seconds`, whatever happens.
    func pump(for seconds: Double) { pump(timeout: seconds) }

    func subscriptions() -> [Subscription] { handler.wantedKeys }

    func publish(_ subscription: Subscription, _ text: String) {
      var text = text
      text.withUTF8 { handler.publish(subscription, line: UnsafeRawBufferPointer($0)) }
      _ = handler.service(now: monotonicSeconds())
    }
  }

  /// Runs `body` with a started handler at a fresh path; stops it after.
  func withServer(
    maxClients: Int = 64, _ body: (Driver, String) throws -> Void
  ) throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/pulsebar.sock"
      let listener = try UnixSocket.listen(path: path)
      var configuration = Configuration()
      configuration.maxClients = maxClients
      let handler = try SocketHandler(
        listener: listener, ownsPath: path, configuration: configuration,
        rules: SubscriptionRules(defaultSubscription: Self.base, maxFPS: configuration.fps),
        sampleRate: 44100, logger: Logger(journal: false))
      try handler.start()
      defer { handler.stop() }
      try body(Driver(handler), path)
    }
  }

  func publish(_ server: Driver, _ subscription: Subscription, _ text: String) {
    server.publish(subscription, text)
  }

  @Test func clientsGetTheirOwnSubscriptionsAndTheLatestLineAtOnce() throws {
    try withServer { server, path in
      let waybar = Subscription(format: .waybar, bars: 12)
      let raw = Subscription(format: .raw, bars: 4)
      let first = try SocketTestClient(path: path, send: "format=waybar bars=12\n")
      let second = try SocketTestClient(path: path, send: "bars=4 format=raw\n")
      #expect(server.pump { Set(server.subscriptions()) == [waybar, raw] })
      #expect(server.handler.clientCount == 2)
      for frame in 0..<3 {
        publish(server, waybar, "{\"frame\":\(frame)}\n")
        publish(server, raw, "\(frame);\(frame);\(frame);\(frame);\n")
      }
      #expect(
        (0..<3).map { _ in first.readLine() } == [
          "{\"frame\":0}", "{\"frame\":1}", "{\"frame\":2}",
        ])
      #expect((0..<3).map { _ in second.readLine() } == ["0;0;0;0;", "1;1;1;1;", "2;2;2;2;"])
      // A late client of an existing subscription gets its latest line without waiting.
      let late = try SocketTestClient(path: path, send: "format=raw bars=4\n")
      server.pump(for: 0.3)
      #expect(late.readLine() == "2;2;2;2;")
      let version = server.handler.keysVersion
      first.descriptor.closeQuietly()
      #expect(server.pump { server.subscriptions() == [raw] && server.handler.clientCount == 2 })
      #expect(server.handler.keysVersion != version)
    }
  }

  /// A still scene whose line stdout already wrote: a client subscribing to the same
  /// (format, bars) gets that line at once, and a second client the same line from the
  /// registry, with nothing new rendered.
  @Test func aNewSubscriptionGetsTheCurrentLineOfAStillScene() throws {
    try withServer { server, path in
      let pipeline = FramePipeline(configuration: Configuration(), sampleRate: 44100)
      let stdout = try pipeline.addConsumer(ConsumerKey(format: .text, bars: 8))
      let info = FrameInfo(time: 0, source: "s", connected: true)
      for _ in 0..<2 {
        pipeline.advanceWithoutAudio(by: 0.1, activity: .none)
        pipeline.renderConsumers(info: info)
      }
      #expect(pipeline.changedLine(stdout) == nil, "the scene stands still")
      let first = try SocketTestClient(path: path, send: "format=text bars=8\n")
      #expect(server.pump { server.subscriptions() == [Self.base] })
      _ = server.handler.deliver(pipeline: pipeline, info: info)
      let line = try #require(first.readLine())
      #expect(line.hasPrefix("‖ "), "\(line)")
      let second = try SocketTestClient(path: path, send: "\n")
      server.pump(for: 0.2)
      #expect(second.readLine() == line)
      _ = server.handler.deliver(pipeline: pipeline, info: info)
      #expect(first.readLine(timeout: 0.2) == nil, "an unchanged line is not sent twice")
    }
  }

  @Test func silentClientGetsTheDefaultAfter100Milliseconds() throws {
    try withServer { server, path in
      let started = monotonicSeconds()
      let client = try SocketTestClient(path: path)
      #expect(server.pump { server.subscriptions() == [Self.base] })
      let waited = monotonicSeconds() - started
      #expect(waited >= 0.09 && waited < 1, "subscribed after \(waited) s")
      publish(server, Self.base, "▁▂▃\n")
      #expect(client.readLine() == "▁▂▃")
    }
  }

  @Test(arguments: [
    ("\u{0}\u{1}\u{2}\u{3}binary\n", "error: binary data in subscription line"),
    (String(repeating: "x", count: 300) + "\n", "error: subscription line longer than 256 bytes"),
    ("format=svg\n", "error: unknown format 'svg' (text, waybar, json, raw)"),
    ("bars=9999\n", "error: bars must be 1...512, got '9999'"),
  ])
  func badLinesGetAnErrorAndACloseWhileOthersCarryOn(line: String, reply: String) throws {
    try withServer { server, path in
      let good = try SocketTestClient(path: path, send: "format=json\n")
      let json = Subscription(format: .json, bars: 8)
      #expect(server.pump { server.subscriptions() == [json] })
      let bad = try SocketTestClient(path: path, send: line)
      server.pump(for: 0.3)
      let (lines, closed) = bad.readUntilClosed()
      #expect(lines == [reply])
      #expect(closed)
      publish(server, json, "{}\n")
      #expect(good.readLine() == "{}")
      #expect(server.pump { server.handler.clientCount == 1 })
    }
  }

  @Test func theClientOverTheLimitIsRefused() throws {
    try withServer { server, path in
      var clients: [SocketTestClient] = []
      for _ in 0..<64 { clients.append(try SocketTestClient(path: path, send: "\n")) }
      #expect(server.pump { server.handler.clientCount == 64 })
      let refused = try SocketTestClient(path: path, send: "format=json\n")
      server.pump(for: 0.3)
      let (lines, closed) = refused.readUntilClosed()
      #expect(lines == ["error: too many clients"])
      #expect(closed)
      #expect(server.handler.clientCount == 64)
      // A place frees up: the next one is served.
      clients.removeLast()
      #expect(server.pump { server.handler.clientCount == 63 })
      let next = try SocketTestClient(path: path, send: "format=raw\n")
      // Subscribed, not only accepted: a line published before that goes nowhere.
      let raw = Subscription(format: .raw, bars: 8)
      #expect(
        server.pump { server.handler.clientCount == 64 && server.subscriptions().contains(raw) })
      publish(server, Subscription(format: .raw, bars: 8), "0;\n")
      #expect(next.readLine() == "0;")
    }
  }

  @Test func clientsThatNeverReadCostAReaderNothing() throws {
    try withServer { server, path in
      var stalled: [SocketTestClient] = []
      for _ in 0..<20 { stalled.append(try SocketTestClient(path: path, send: "\n")) }
      let reader = try SocketTestClient(path: path, send: "\n")
      #expect(
        server.pump { server.handler.clientCount == 21 && server.subscriptions() == [Self.base] })
      let line = String(repeating: "█", count: 700) + "\n"  // 2 kB: fills socket buffers fast
      var received = 0
      for frame in 0..<600 {
        publish(server, Self.base, "\(frame) \(line)")
        if frame % 16 == 15 {
          while reader.readLine(timeout: 0.001) != nil { received += 1 }
        }
      }
      while reader.readLine(timeout: 0.3) != nil { received += 1 }
      // docs/DESIGN.md ("Socket"): stalled clients never hold a reader up; it keeps at least
      // 95 % of its frames (the publisher here runs flat out, faster than any frame rate, on a
      // loaded machine).
      #expect(received >= 570, "the reader lost frames: \(received) of 600")
      #expect(server.handler.droppedFrames > 0, "stalled clients should have dropped frames")
      _ = stalled
    }
  }

  @Test func aClientStuckForFiveSecondsIsDisconnected() throws {
    try withServer { server, path in
      let stuck = try SocketTestClient(path: path, send: "\n")
      #expect(server.pump { server.handler.clientCount == 1 && !server.subscriptions().isEmpty })
      let line = String(repeating: "x", count: 8191) + "\n"
      let started = monotonicSeconds()
      // Keep publishing a frame every 50 ms, as an engine would, until the client is gone.
      while server.handler.clientCount == 1 && monotonicSeconds() - started < 9 {
        publish(server, Self.base, line)
        pause(0.05)
      }
      let elapsed = monotonicSeconds() - started
      #expect(server.handler.clientCount == 0)
      #expect(elapsed > 4.5 && elapsed < 8, "dropped after \(elapsed) s")
      _ = stuck
    }
  }

  @Test func listenerIsPrivateReplacesStaleFilesAndIsRemovedOnStop() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/pulsebar.sock"
      // A stale socket file: bound once, its listener closed without unlinking.
      let stale = try UnixSocket.listen(path: path)
      stale.closeQuietly()
      let listener = try UnixSocket.listen(path: path)
      var status = stat()
      #expect(stat(path, &status) == 0)
      #expect(status.st_mode & 0o777 == 0o600)
      // A live one is not taken over, nor is a file that is not a socket.
      #expect(throws: UnixSocket.ListenError.self) { _ = try UnixSocket.listen(path: path) }
      let plain = directory + "/not-a-socket"
      try writeTextFile(plain, "keep me\n")
      #expect(throws: UnixSocket.ListenError.self) { _ = try UnixSocket.listen(path: plain) }
      #expect(try readTextFile(plain) == "keep me\n")
      let handler = try SocketHandler(
        listener: listener, ownsPath: path, configuration: Configuration(),
        rules: SubscriptionRules(defaultSubscription: Self.base, maxFPS: 60), sampleRate: 44100,
        logger: Logger(journal: false))
      try handler.start()
      handler.stop()
      #expect(access(path, F_OK) != 0, "socket file left behind")
    }
  }
}

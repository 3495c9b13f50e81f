import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarSystem
import Testing

@testable import PulseBarDaemon

/// The real ``Engine`` with the real ``SocketHandler`` on manual time (``EmbeddedEngine``), a
/// fake capture (audio written into the buffer at exact times) and a fake player feed, three
/// clients on a real socket: one reads, one never says its subscription, one never reads. The
/// socket's deadlines are on the engine's time (``SocketHandler/now``): the first line's
/// 100 ms, the stuck client's 5 s and the status meters happen at exact times, with no sleep.
/// The engine starts at 5 s, far from the system's monotonic clock, so a deadline taken from
/// that clock would never come due here.
@Suite(.serialized) struct EngineSocketTests {
  static let start = 5.0
  static let period = 0.02

  @Test func deadlinesFramesAndDropsAtExactTimes() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/pulsebar.sock"
      var configuration = Configuration()
      configuration.fps = 50
      configuration.format = .json
      let handler = try SocketHandler(
        listener: try UnixSocket.listen(path: path), ownsPath: path,
        configuration: configuration,
        rules: DaemonSocket.rules(configuration: configuration, sampleRate: 48000),
        sampleRate: 48000, logger: Logger(journal: false))
      try handler.start()
      defer { handler.stop() }
      let engine = EmbeddedEngine(
        configuration: configuration, start: Self.start, deliveries: [handler])
      #expect(
        handler.statusDesk.meters?.startedAt == Self.start, "the meters start with the engine")
      // A hop of audio every frame period for 20 s; a player playing from 10 s at 6 s.
      for step in 0..<1000 { engine.audio(hops: 1, at: Self.start + Double(step) * Self.period) }
      engine.schedule(at: 6) { [players = engine.playerFeed] in
        players.post(
          NowPlaying(player: "fake", status: .playing, position: 10_000_000, positionTime: 6))
      }

      let reader = try SocketTestClient(path: path, send: "format=json\n")
      let silent = try SocketTestClient(path: path)
      let stuck = try SocketTestClient(path: path, send: "format=json\n")
      engine.advance(to: Self.start)
      #expect(handler.clientCount == 3)
      #expect(handler.now == Self.start)
      // The stuck client's socket holds little, so it fills within a few frames.
      for case let client? in handler.clients where client.serial == 3 {
        var size: Int32 = 4096
        setsockopt(client.descriptor.rawValue, SOL_SOCKET, SO_SNDBUF, &size, 4)
      }

      // No subscription line within 100 ms of the engine's time: the default one, at 5.1 s.
      engine.advance(to: Self.start + 0.099)
      #expect(silent.readLine(timeout: 0.05) == nil, "subscribed before 100 ms")
      engine.advance(to: Self.start + 0.1)
      #expect(silent.readLine(timeout: 1) != nil, "not subscribed at 100 ms")

      // The stuck client: dropped 5 s after its socket filled, to the frame.
      engine.advance(to: Self.start + 1)
      let stuckDeadline = handler.clients.compactMap { $0 }.first { $0.serial == 3 }?
        .protocolState.nextDeadline
      let deadline = try #require(stuckDeadline, "the stuck client's socket never filled")
      #expect(deadline > Self.start && deadline <= Self.start + 6, "\(deadline)")
      engine.advance(to: deadline - 0.001)
      #expect(handler.clientCount == 3, "dropped before its 5 s at \(engine.clock.time)")
      engine.advance(to: deadline)
      #expect(handler.clientCount == 2, "not dropped at its 5 s")
      #expect(engine.clock.time == deadline)

      // The reader had every frame, and the player's position on the engine's time.
      var lines: [String] = []
      let framesBefore = engine.frames.count
      for step in 1...30 {
        engine.advance(to: deadline + Double(step) * 0.1)
        while let line = reader.readLine(timeout: 0.01) { lines.append(line) }
      }
      let frames = engine.frames.count - framesBefore
      #expect(lines.count >= frames, "\(lines.count) lines for \(frames) frames")
      let position = lines.last.flatMap { $0.firstRange(of: "\"position\":") }.map {
        lines.last![$0.upperBound...].prefix { $0 != "," }
      }
      let lastFrame = try #require(engine.frames.last?.time)
      let expected = 10 + (lastFrame - 6)
      #expect(
        position.flatMap { Double($0) }.map { abs($0 - expected) < 0.0015 } == true,
        "position \(String(describing: position)) at \(lastFrame), expected \(expected)")
      _ = stuck
    }
  }
}

import Glibc
import PulseBarSystem
import Testing

@testable import PulseBarDaemon

/// Idle connections cannot hold the slots: a client that sent nothing and reads nothing gives
/// its slot up to one that subscribes when all are taken. A client that sent its line, or that
/// reads, keeps its slot. The rule with exact times, then a real daemon.
@Suite struct IdleClientTests {
  static func subscribedByDefault() -> ClientProtocol {
    var client = ClientProtocol(connectedAt: 10)
    #expect(client.timePassed(now: 10.1) == .subscribe(SubscriptionRequest()))
    return client
  }

  @Test func theRuleWithExactTimes() {
    let silent = Self.subscribedByDefault()
    let unread = ClientProtocol.idleUnreadBytes
    #expect(!silent.isIdle(now: 11.99, unreadBytes: unread * 10, sentBytes: 100), "too young")
    #expect(silent.isIdle(now: 12, unreadBytes: unread, sentBytes: 1000))
    #expect(!silent.isIdle(now: 60, unreadBytes: unread - 1, sentBytes: 100), "a line or two")
    #expect(!silent.isIdle(now: 60, unreadBytes: 9000, sentBytes: 9001), "it read some")
    var spoke = ClientProtocol(connectedAt: 10)
    #expect(spoke.received(Array("fps=5\n".utf8)) == .subscribe(SubscriptionRequest(fps: 5)))
    #expect(!spoke.isIdle(now: 60, unreadBytes: unread * 10, sentBytes: 100), "it sent its line")
    var partial = ClientProtocol(connectedAt: 10)
    _ = partial.received([UInt8(ascii: "\r")])
    _ = partial.endOfInput()
    #expect(!partial.isIdle(now: 60, unreadBytes: unread * 10, sentBytes: 100), "it sent a byte")
    #expect(
      !ClientProtocol(connectedAt: 10).isIdle(now: 60, unreadBytes: unread * 10, sentBytes: 100))
  }

  /// Six idle connections against four slots: after their 2 s, a `listen`-style client still
  /// subscribes, and the default client that reads is never the one dropped.
  @Test func idleConnectionsGiveTheirSlotsUp() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory, seconds: 30)
      let config = directory + "/daemon.conf"
      try writeTextFile(config, "[socket]\nmax_clients = 4\n")
      let daemon = try TestDaemon(
        audio: audio, socketPath: directory + "/s.sock", extra: ["--config", config])
      let reader = try SocketTestClient(path: daemon.socketPath)
      #expect(reader.readLine() != nil)
      var idle: [SocketTestClient] = []
      for _ in 0..<6 { idle.append(try SocketTestClient(path: daemon.socketPath)) }
      let early = try SocketTestClient(path: daemon.socketPath, send: "format=json\n")
      #expect(early.readUntilClosed().lines == ["error: too many clients"], "none idle yet")
      let end = monotonicSeconds() + 2.5
      var read = 0
      while monotonicSeconds() < end { read += reader.readLine(timeout: 1) == nil ? 0 : 1 }
      #expect(read > 5, "the reader reads: \(read) lines")
      for _ in 0..<2 {
        let later = try SocketTestClient(path: daemon.socketPath, send: "format=json\n")
        let line = later.readLine(timeout: 3)
        #expect(line?.hasPrefix("{\"seq\":") == true, "\(line ?? "none")")
      }
      #expect(reader.readLine() != nil, "the reader keeps its slot")
      #expect(try daemon.terminate() == 0)
    }
  }
}

import Glibc
import PulseBarSystem
import PulseBarTestSupport
import Testing

/// A daemon out of descriptors (a low `RLIMIT_NOFILE`, more clients than it can accept) keeps
/// serving the clients it has and says so once, not ten times a second.
@Suite struct AcceptWarningTests {
  @Test func theAcceptWarningIsRateLimited() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory, seconds: 30)
      let daemon = try TestDaemon(
        audio: audio, socketPath: directory + "/s.sock",
        launcher: ["prlimit", "--nofile=24:24", "--"])
      var clients: [SocketTestClient] = []
      for _ in 0..<30 { clients.append(try SocketTestClient(path: daemon.socketPath)) }
      // Some are served; the rest wait in the backlog while accept fails with EMFILE.
      #expect(clients[0].readLine(timeout: 5) != nil, "\(daemon.process.standardError)")
      pause(3)
      let warnings = daemon.process.standardError.split(separator: "\n").filter {
        $0.contains("socket: accept: ")
      }
      #expect(warnings.count == 1, "\(warnings.count) lines: \(warnings.prefix(3))")
      #expect(
        warnings.first?.contains("\(Errno(rawValue: EMFILE)); retrying every 100 ms") == true,
        "\(warnings)")
      #expect(try daemon.terminate() == 0)
      _ = clients
    }
  }
}

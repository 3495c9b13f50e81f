import Glibc
import PulseBarSystem
import PulseBarTestSupport
import Testing

@testable import PulseBarDaemon

/// What the commands say about the daemon, for real: a second daemon on a socket in use names
/// `listen` and `systemctl --user stop`, and `status` escapes what a foreign socket sends.
@Suite struct DaemonHintTests {
  @Test func aSecondDaemonNamesTheWaysForward() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory)
      let daemon = try TestDaemon(audio: audio, socketPath: directory + "/s.sock")
      let second = try Binary.run(
        ["run", "--input", "file:" + audio, "--socket", daemon.socketPath, "--no-stdout"],
        timeout: 10)
      #expect(second.status != 0)
      #expect(second.error.contains("in use by a running daemon"), "\(second.error)")
      #expect(second.error.contains(DaemonHints.socketInUse), "\(second.error)")
      #expect(try daemon.terminate() == 0)
    }
  }

  /// A socket that is no daemon answers `status` with escape sequences: they are printed as
  /// escapes (`\x1B`), never raw, so the terminal is not retitled or recoloured.
  @Test func statusEscapesAForeignSocket() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/s.sock"
      let server = try UnixSocket.listen(path: path)
      defer { server.closeQuietly() }
      let status = try ChildProcess(Binary.path, ["status", "--socket", path])
      let deadline = ChildProcess.now() + 10
      var served = false
      while !served && ChildProcess.now() < deadline {
        guard let client = try server.accept() else {
          usleep(10000)
          continue
        }
        let answer = Array("\u{1B}]0;owned\u{07}state \u{1B}[31mred\u{9B}2J\n".utf8)
        _ = answer.withUnsafeBytes { try? client.send($0) }
        client.closeQuietly()
        served = true
      }
      #expect(served)
      let line = status.readLine(timeout: 5)
      #expect(try status.waitForExit(timeout: 5) == 0)
      #expect(line == #"\x1B]0;owned\x07state \x1B[31mred\u{009B}2J"#, "\(line ?? "none")")
    }
  }
}

import Glibc
import PulseBarSystem
import PulseBarTestSupport
import Testing

/// A stdout that cannot be written is an error line and exit 1, never a silent exit 0; the
/// signals pulsebar has no use for do not end the daemon.
@Suite struct StdoutAndSignalTests {
  /// `sh -c 'exec pulsebar ARGUMENTS REDIRECTION'`, run to its end.
  static func run(_ arguments: [String], redirection: String) throws -> (
    status: Int32, error: String
  ) {
    let script = "exec \"$0\" \"$@\" " + redirection
    let child = try ChildProcess("sh", ["-c", script, Binary.path] + arguments)
    let status = try child.waitForExit(timeout: 20)
    return (status, child.standardError)
  }

  @Test func aStdoutThatFailsIsAnErrorLineAndExitOne() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory, seconds: 3)
      let full = Errno(rawValue: ENOSPC)
      let closed = Errno.badFileDescriptor
      for (arguments, redirection, error) in [
        (["run", "--input", "file:" + audio], ">/dev/full", full),
        (["run", "--input", "file:" + audio, "--socket", directory + "/s.sock"], ">&-", closed),
        (["run", "--input", "file:" + audio, "--offline"], ">/dev/full", full),
        (["--version"], ">&-", closed), (["bands"], ">/dev/full", full),
        (["check-config", "/dev/null/none"], ">&-", nil),
      ] as [([String], String, Errno?)] {
        let result = try Self.run(arguments, redirection: redirection)
        guard let error else {
          #expect(result.status == 2, "a config error stays exit 2: \(result.error)")
          continue
        }
        #expect(result.status == 1, "\(arguments) \(redirection): \(result.error)")
        #expect(
          result.error.hasSuffix("cannot write to stdout: \(error)\n"),
          "\(arguments) \(redirection): \(result.error)")
        let said = result.error.split(separator: "\n").filter { $0.contains("stdout") }
        #expect(said.count == 1, "\(result.error)")
      }
      // The daemon's socket file goes with it.
      #expect(access(directory + "/s.sock", F_OK) != 0)
    }
  }

  /// SIGUSR2 and SIGALRM are ignored: the daemon keeps serving, and SIGTERM then ends it
  /// cleanly, removing its socket (they used to kill it and leave the socket file behind).
  @Test func straySignalsDoNotEndTheDaemon() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory, seconds: 30)
      let daemon = try TestDaemon(audio: audio, socketPath: directory + "/s.sock")
      let client = try SocketTestClient(path: daemon.socketPath, send: "\n")
      #expect(client.readLine() != nil)
      daemon.process.send(SIGUSR2)
      daemon.process.send(SIGALRM)
      pause(0.3)
      #expect(daemon.process.isRunning, "\(daemon.process.standardError)")
      var drained = 0
      while drained < 200, client.readLine(timeout: 0.005) != nil { drained += 1 }
      #expect(client.readLine() != nil, "no frame after the signals")
      #expect(try daemon.terminate() == 0)
      #expect(access(daemon.socketPath, F_OK) != 0, "the socket file was left behind")
    }
  }
}

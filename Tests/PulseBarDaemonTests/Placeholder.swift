import PulseBarTestSupport
import Testing

@testable import PulseBarDaemon

/// The test-support child process runs a real program and reads its lines.
@Test func childProcessReadsLinesAndExitCode() throws {
  let child = try ChildProcess("sh", ["-c", "echo one; echo two >&2; echo three; exit 3"])
  #expect(child.readLine(timeout: 5) == "one")
  #expect(child.readLine(timeout: 5) == "three")
  #expect(try child.waitForExit(timeout: 5) == 3)
  #expect(child.standardError == "two\n")
}

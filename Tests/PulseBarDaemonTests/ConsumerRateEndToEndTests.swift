import Glibc
import PulseBarSystem
import PulseBarTestSupport
import Testing

/// The real daemon analyses at the rate its clients read: one `listen --fps 30` (Waybar's
/// recipe) makes it analyse 30 frames a second, a second client at the full rate raises it to
/// 60, and when that one leaves it is 30 again.
@Suite struct ConsumerRateEndToEndTests {
  @Test func theDaemonFollowsItsFastestClient() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory)
      let socket = directory + "/s.sock"
      let daemon = try TestDaemon(audio: audio, socketPath: socket, extra: ["-v"])
      func waitForRate(_ rate: Int) -> Bool {
        eventually(timeout: 10) {
          daemon.process.standardError.split(separator: "\n").last {
            $0.contains("frames a second (the fastest consumer's rate)")
          }?.contains("analysing \(rate) frames") == true
        }
      }
      // No client yet: general.fps.
      #expect(waitForRate(60), "\(daemon.process.standardError)")
      let slow = try ChildProcess(
        Binary.path, ["listen", "--socket", socket, "--format", "json", "--fps", "30"])
      #expect(slow.readLine(timeout: 10) != nil, "no line: \(slow.standardError)")
      #expect(waitForRate(30), "\(daemon.process.standardError)")
      // json `time` is seconds of audio: 1/30 s a line now.
      let lines = slow.readLines(for: 1).compactMap { JSONValue.parse($0)?["time"]?.number }
      let steps = zip(lines.dropFirst(), lines).map { $0 - $1 }
      #expect(!steps.isEmpty && steps.allSatisfy { abs($0 - 1.0 / 30) < 0.002 }, "\(steps)")
      let fast = try ChildProcess(Binary.path, ["listen", "--socket", socket, "--format", "raw"])
      #expect(fast.readLine(timeout: 10) != nil)
      #expect(waitForRate(60), "\(daemon.process.standardError)")
      fast.send(SIGTERM)
      _ = try fast.waitForExit(timeout: 5)
      #expect(waitForRate(30), "\(daemon.process.standardError)")
      slow.send(SIGTERM)
      _ = try slow.waitForExit(timeout: 5)
      #expect(try daemon.terminate() == 0)
    }
  }
}

import Glibc
import PulseBarTestSupport
import Testing

/// libpulse and libsndfile are opened when first needed, not linked (CAudioLibraries): a
/// machine without one still runs pulsebar, and where it is needed one line says what to
/// install while the daemon goes on.
@Suite("audio libraries opened on use", .serialized)
struct AudioLibraryTests {
  typealias Daemon = PulseEndToEndTests.Daemon

  /// The command prefix that runs a program as on a machine without `soname`: a mount
  /// namespace of its own (`unshare -m`, as root) where the library's file is `/dev/null`
  /// bound over it, so the loader finds it empty. Cancels the test where namespaces are
  /// not allowed.
  static func hidden(_ soname: String) throws -> [String] {
    let probe = try ChildProcess("unshare", ["-m", "true"])
    if try probe.waitForExit(timeout: 5) != 0 {
      let reason = "unshare -m is not allowed here: \(probe.standardError)"
      withKnownIssue("skipped") { Issue.record(Comment(rawValue: reason)) }
      try Test.cancel(Comment(rawValue: reason))
    }
    let script = """
      file=$(readlink -f "$(ldconfig -p | awk -v name=\(soname) '$1 == name { print $NF; exit }')")
      [ -f "$file" ] && mount --bind /dev/null "$file" && exec "$@"
      echo "cannot hide \(soname) ($file)" >&2; exit 99
      """
    return ["unshare", "-m", "sh", "-c", script, "hide"]
  }

  @Test("without libpulse, --input pulse says what to install in one line and the daemon goes on")
  func withoutLibpulse() throws {
    let daemon = try Daemon(.pulseaudio, input: "pulse", hiding: "libpulse.so.0")
    // The resting frame came (Daemon waits for it); an idle daemon writes nothing more, and
    // none says connected.
    let frames = daemon.process.readLines(for: 1)
    #expect(daemon.process.isRunning, "\(daemon.process.standardError)")
    #expect(frames.allSatisfy { !PulseEndToEndTests.Frame($0).connected }, "\(frames)")
    let lines = daemon.process.standardError.split(separator: "\n")
      .filter { $0.contains("libpulse") }
    #expect(lines.count == 1, "\(daemon.process.standardError)")
    #expect(
      lines.first?.hasPrefix("pulsebar: PulseAudio: cannot load libpulse.so.0 (") == true
        && lines.first?.hasSuffix(
          "install libpulse0, or record PipeWire natively (--input pipewire)")
          == true,
      "\(lines)")
  }

  @Test("without libpulse, native PipeWire capture plays as before")
  func pipeWireWithoutLibpulse() throws {
    let daemon = try Daemon(.pipewire, input: "pipewire", hiding: "libpulse.so.0")
    let player = try daemon.server.play(tone: 1000, seconds: 6)
    defer { player.send(SIGKILL) }
    PulseEndToEndTests.expectStraightToPlaying(daemon)
    #expect(!daemon.process.standardError.contains("libpulse"), "\(daemon.process.standardError)")
  }

  @Test("without libsndfile, a file input is one clear error line and exit 1")
  func withoutLibsndfile() throws {
    let directory = try TemporaryDirectory()
    let path = try makeTestAudio(in: directory.path, seconds: 1)
    let command =
      try Self.hidden("libsndfile.so.1")
      + [Binary.path, "run", "--input", "file:\(path)", "--offline", "--format", "raw"]
    let run = try ChildProcess(command[0], Array(command.dropFirst()))
    #expect(try run.waitForExit(timeout: 10) == 1, "\(run.standardError)")
    #expect(
      run.standardError.hasPrefix("pulsebar: \(path): cannot load libsndfile.so.1 (")
        && run.standardError.hasSuffix("install libsndfile1 to read audio files\n"),
      "\(run.standardError)")
    #expect(run.standardError.split(separator: "\n").count == 1, "\(run.standardError)")
  }
}

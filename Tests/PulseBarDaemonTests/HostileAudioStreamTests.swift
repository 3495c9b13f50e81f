import Foundation
import Glibc
import PulseBarTestSupport
import Testing

/// Any program may play float samples that are NaN into a float sink: PulseAudio passes them
/// through to the monitor unchanged (checked with `parec`: half the recorded samples NaN). The
/// real daemon on that monitor, in the text format (whose renderer converts bar heights to
/// integers), must keep running and keep drawing; it used to die of SIGILL at the first frame.
@Suite("Hostile audio streams", .serialized)
struct HostileAudioStreamTests {
  @Test func nanFromAnotherProgramDoesNotKillTheDaemon() throws {
    try AudioServerKind.pulseaudio.skipUnlessRunnable()
    let server = try PrivatePulseServer()
    defer { server.stop() }
    let environment = server.environment
    for arguments in [
      ["load-module", "module-null-sink", "sink_name=pb_float", "format=float32le"],
      ["set-default-sink", "pb_float"],
    ] {
      let pactl = try ChildProcess("/usr/bin/pactl", arguments, environment: environment)
      #expect(try pactl.waitForExit(timeout: 10) == 0, "pactl \(arguments)")
    }
    // A 1 kHz tone with every other tenth of a second NaN, stereo float32.
    let path = server.directory + "/nan.f32"
    var samples = Data()
    for frame in 0..<(44100 * 3) {
      let tone = 0.5 * sinf(2 * .pi * 1000 * Float(frame) / 44100)
      let value = (frame / 4410) % 2 == 1 ? Float.nan : tone
      for _ in 0..<2 { withUnsafeBytes(of: value.bitPattern.littleEndian) { samples += $0 } }
    }
    try samples.write(to: URL(fileURLWithPath: path))

    let daemon = try ChildProcess(
      Binary.path, ["run", "--input", "pulse", "--format", "text", "--bars", "8"],
      environment: environment)
    defer {
      daemon.send(SIGTERM)
      _ = try? daemon.waitForExit(timeout: 5)
    }
    #expect(daemon.readLine(timeout: 10) != nil, "no first line: \(daemon.standardError)")
    let player = try ChildProcess(
      "/usr/bin/pacat",
      ["--format=float32le", "--rate=44100", "--channels=2", "--device=pb_float", path],
      environment: environment)
    let during = daemon.readLines(for: 2.5)
    _ = try player.waitForExit(timeout: 10)
    #expect(daemon.isRunning, "the daemon died: \(daemon.standardError.suffix(600))")
    // The bars move with the tone between the NaN stretches: more than one distinct line.
    #expect(Set(during).count > 1, "lines while NaN played: \(Set(during))")
  }
}

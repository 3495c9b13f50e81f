import Glibc
import PulseBarTestSupport
import Testing

@Suite(.serialized) struct LiveInputTests {
  static let directory = Binary.temporaryDirectory()

  /// Without --offline a file plays in real time: 1.5 s of audio takes about 1.5 s.
  @Test func fileInputIsPacedInRealTime() throws {
    let file = Self.directory + "/sweep.wav"
    try Binary.shell("sox -n -r 44100 -c 1 \(file) synth 1.5 sine 100-5000")
    let start = ChildProcess.now()
    let result = try Binary.run(["--input", "file:\(file)", "--format", "json", "--bars", "16"])
    let elapsed = ChildProcess.now() - start
    #expect(result.status == 0, "\(result.error)")
    #expect(elapsed > 1.4 && elapsed < 6, "took \(elapsed) s")
    // Under load a late fragment is one frame, never a burst: most of the 90 frames, not all.
    #expect(result.lines.count > 40, "a changing sweep gives most of its 90 frames")
    let times = result.lines.compactMap { line -> Double? in
      guard let field = line.split(separator: ",").first(where: { $0.hasPrefix("\"time\":") })
      else {
        return nil
      }
      return Double(field.dropFirst(7))
    }
    #expect(times.count == result.lines.count)
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "audio time increases")
  }

  /// A FIFO (MPD's fifo output) is read as raw s16le at the configured rate; a writer
  /// that goes away is not the end.
  @Test func fifoInputSurvivesWriterRestart() throws {
    let fifo = Self.directory + "/mpd.fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    let tone = Self.directory + "/tone.raw"
    try Binary.shell("sox -n -t raw -r 44100 -e signed -b 16 -c 2 \(tone) synth 0.5 sine 3000")
    let daemon = try ChildProcess(
      Binary.path, ["--input", "fifo:\(fifo)", "--format", "raw", "--bars", "8"])
    let writer =
      "i=0; while [ $i -lt 20 ]; do dd if=\(tone) bs=4410 skip=$i count=1 2>/dev/null; sleep 0.025; i=$((i+1)); done > \(fifo)"
    try Binary.shell(writer)
    let first = daemon.readLines(for: 1)
    #expect(first.count > 5)
    try Binary.shell(writer)
    let second = daemon.readLines(for: 1)
    #expect(second.count > 5, "frames again after the writer came back")
    #expect(daemon.isRunning)
    daemon.send(SIGTERM)
    #expect(try daemon.waitForExit(timeout: 5) == 0)
  }

  /// SIGHUP reloads the config into the running pipeline (new bar glyphs show at once);
  /// a key that needs a restart is named in the log instead of being ignored silently.
  @Test func sighupReloadsTheConfig() throws {
    let file = Self.directory + "/noise.wav"
    try Binary.shell("sox -n -r 44100 -c 1 \(file) synth 8 pinknoise tremolo 3 80")
    let config = Self.directory + "/reload.conf"
    try Binary.shell("printf '[general]\\nbars = 4\\n' > \(config)")
    let daemon = try ChildProcess(
      Binary.path, ["--config", config, "--input", "file:\(file)", "--format", "text"])
    #expect(daemon.waitForLine(timeout: 5) { _ in true } != nil)
    try Binary.shell(
      "printf '[general]\\nbars = 4\\n[output]\\nbar_glyphs = abcdefgh\\n[socket]\\nmax_clients = 3\\n' > \(config)"
    )
    daemon.send(SIGHUP)
    let reloaded = daemon.waitForLine(timeout: 5) { line in
      line.split(separator: " ").dropFirst().first.map { $0.allSatisfy { "abcdefgh".contains($0) } }
        ?? false
    }
    #expect(reloaded != nil, "no frame drawn with the new glyphs")
    #expect(daemon.standardError.contains("socket.max_clients take effect at the next restart"))
    daemon.send(SIGTERM)
    #expect(try daemon.waitForExit(timeout: 5) == 0)
  }

  @Test func fifoThatIsNotAFifoIsAnError() throws {
    let plain = Self.directory + "/plain"
    try Binary.shell(": > \(plain)")
    let result = try Binary.run(["--input", "fifo:\(plain)"])
    #expect(result.status == 1)
    #expect(result.error == "pulsebar: \(plain): not a FIFO (make one with mkfifo)\n")
  }
}

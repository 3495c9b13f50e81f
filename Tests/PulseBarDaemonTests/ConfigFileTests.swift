import Glibc
import PulseBarSystem
import PulseBarTestSupport
import Testing

/// The config file as the real binary reads it: only a regular file, never blocking, at most
/// 1 MiB, UTF-8 with or without a byte-order mark; every message one line with its controls
/// escaped.
@Suite struct ConfigFileTests {
  /// `pulsebar check-config FILE` on what is not a regular file: one line and exit 2, at once
  /// (a FIFO with no writer used to hang it forever).
  @Test func checkConfigRefusesWhatIsNotARegularFile() throws {
    try withTemporaryDirectory { directory in
      let fifo = directory + "/fifo"
      try #require(mkfifo(fifo, 0o600) == 0)
      let socket = directory + "/sock"
      let listener = try UnixSocket.listen(path: socket)
      defer { listener.closeQuietly() }
      for (path, kind) in [
        (fifo, "a FIFO"), (directory, "a directory"), ("/dev/null", "a character device"),
        (socket, "a socket"),
      ] {
        let start = ChildProcess.now()
        let result = try Binary.run(["check-config", path], timeout: 5)
        #expect(ChildProcess.now() - start < 3, "\(path) took too long")
        #expect(result.status == 2)
        #expect(result.error == "pulsebar: \(path): not a regular file (\(kind))\n")
      }
    }
  }

  /// Over 1 MiB is refused; a byte-order mark is accepted; a NUL and invalid UTF-8 are named
  /// escaped, with their line and column; warnings go to stderr and the file is still ok.
  @Test func checkConfigMessages() throws {
    try withTemporaryDirectory { directory in
      let file = directory + "/config"
      try writeTextFile(file, "# " + String(repeating: "x", count: 1 << 20) + "\n")
      let large = try Binary.run(["check-config", file], timeout: 10)
      #expect(large.status == 2)
      #expect(large.error == "pulsebar: \(file): larger than 1 MiB; not a config file\n")

      try writeTextFile(file, "\u{FEFF}[general]\nbars = 12\n")
      let bom = try Binary.run(["check-config", file], timeout: 10)
      #expect(bom.status == 0, "\(bom.error)")
      // bars = 12 with the default template: ► , 12 bars, a space, 6 bubble cells.
      #expect(
        bom.lines == ["\(file): ok", "\(file): the text line is 21 cells wide in every state"])

      try writeTextFile(file, "[general]\nbars = 1\u{0}2\n")
      let nul = try Binary.run(["check-config", file], timeout: 10)
      #expect(nul.status == 2)
      #expect(nul.error.contains(#"1\x002"#), "\(nul.error)")
      #expect(!nul.error.utf8.contains(0))

      try writeBytes(file, Array("[general]\nbars = 8\n[output]\noffline_text = ab".utf8) + [0xFF])
      let binary = try Binary.run(["check-config", file], timeout: 10)
      #expect(binary.status == 2)
      #expect(binary.error == "pulsebar: \(file):4:18: not UTF-8 text (the byte \\xFF)\n")

      try writeTextFile(file, "[output]\ntitle_width = 20\ntext = \"{glyph} {bars}\"\n")
      let warned = try Binary.run(["check-config", file], timeout: 10)
      #expect(warned.status == 0)
      // title_width appends a 20-cell title: 1 + 1 + 8 + 1 + 20.
      #expect(
        warned.lines == ["\(file): ok", "\(file): the text line is 31 cells wide in every state"])
      #expect(
        warned.error.split(separator: "\n").map { String($0) } == [
          "pulsebar: \(file):2: warning: output.title_width is deprecated: put {title:N} in output.text (or text_playing, …) instead"
        ])
    }
  }

  /// SIGHUP with the config replaced by a FIFO: one error line, and the engine never stops:
  /// a client keeps getting frames and the watchdog keeps being told the engine is alive
  /// (the reload used to block in `open` until a writer came).
  @Test func aReloadFromAFIFONeverBlocksTheEngine() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory, seconds: 30)
      let config = directory + "/config"
      try writeTextFile(config, "[general]\nbars = 6\n")
      let notify = try NotifyListener(path: directory + "/notify")
      let daemon = try TestDaemon(
        audio: audio, socketPath: directory + "/s.sock", extra: ["--config", config],
        environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "400000"])
      let client = try SocketTestClient(path: daemon.socketPath, send: "format=raw\n")
      #expect(client.readLine() != nil)
      unlink(config)
      try #require(mkfifo(config, 0o600) == 0)
      daemon.process.send(SIGHUP)
      let logged = eventually(timeout: 3) {
        daemon.process.standardError.contains("\(config): not a regular file (a FIFO)")
      }
      #expect(logged, "stderr: \(daemon.process.standardError)")
      let before = notify.messages.count
      // What was sent before the reload, then what comes in 1.5 s.
      var drained = 0
      while drained < 100, client.readLine(timeout: 0.005) != nil { drained += 1 }
      var frames = 0
      let deadline = monotonicSeconds() + 1.5
      while monotonicSeconds() < deadline {
        if client.readLine(timeout: max(0.001, deadline - monotonicSeconds())) != nil {
          frames += 1
        }
      }
      #expect(frames > 20, "the engine stalled: \(frames) frames in 1.5 s")
      _ = notify.waitFor("never sent", timeout: 0.5)
      let pings = notify.messages[before...].filter { $0.contains("WATCHDOG=1") }.count
      #expect(pings >= 2, "\(notify.messages)")
      #expect(try daemon.terminate() == 0)
    }
  }
}

extension ConfigFileTests {
  /// Every line on stderr is escaped, whatever it quotes: here a command-line value with an
  /// ANSI sequence and a bidi override.
  @Test func stderrNeverCarriesControls() throws {
    let result = try Binary.run(["--bars", "\u{1B}[31m9\u{202E}"], timeout: 10)
    #expect(result.status == 2)
    #expect(result.error.contains(#"\x1B[31m9\u{202E}"#), "\(result.error)")
    #expect(!result.error.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
  }

  /// The daemon says a config warning once, with its line: at start, not again at a reload of
  /// the same file; a warning new to the reloaded file is said then.
  @Test func theDaemonWarnsOnce() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory, seconds: 30)
      let config = directory + "/config"
      try writeTextFile(config, "[output]\ntitle_width = 10\n")
      let notify = try NotifyListener(path: directory + "/notify")
      let daemon = try TestDaemon(
        audio: audio, socketPath: directory + "/s.sock", extra: ["--config", config],
        environment: ["NOTIFY_SOCKET": notify.path])
      func count(_ text: String) -> Int {
        daemon.process.standardError.split(separator: "\n").filter { $0.contains(text) }.count
      }
      #expect(eventually { count("\(config):2: warning: output.title_width") == 1 })
      daemon.process.send(SIGHUP)
      #expect(notify.waitFor("RELOADING=1"))
      try writeTextFile(config, "[output]\ntitle_width = 10\ntext =\n")
      daemon.process.send(SIGHUP)
      #expect(eventually { count("\(config):3: warning: output.text is empty") == 1 })
      #expect(try daemon.terminate() == 0)
      #expect(count("warning: output.title_width") == 1, "\(daemon.process.standardError)")
    }
  }
}

/// Writes `bytes` to `path`, replacing it.
func writeBytes(_ path: String, _ bytes: [UInt8]) throws {
  let raw = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  guard raw >= 0 else { throw Errno.current }
  let descriptor = FileDescriptor(rawValue: raw)
  defer { descriptor.closeQuietly() }
  try bytes.withUnsafeBytes { try descriptor.writeAll($0) }
}

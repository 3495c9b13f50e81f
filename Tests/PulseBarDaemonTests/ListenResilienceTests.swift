import Glibc
import PulseBarSystem
import PulseBarTestSupport
import Testing

/// `pulsebar listen` never exits while its bar reads it: a broken config is one note and an
/// error line, a typo in a key it does not read is nothing, a refusal is an error line, a full
/// daemon is named as such, and a socket that sends an endless line is dropped.
@Suite struct ListenResilienceTests {
  /// A `listen` child with `XDG_CONFIG_HOME` at `directory` and the socket `socket`.
  private static func listen(
    _ arguments: [String], directory: String, socket: String
  ) throws -> ChildProcess {
    try ChildProcess(
      TestDaemon.binary, ["listen", "--socket", socket] + arguments,
      environment: ["XDG_CONFIG_HOME": directory])
  }

  private static func writeUserConfig(_ directory: String, _ text: String) throws {
    mkdir(directory + "/pulsebar", 0o700)
    try writeTextFile(directory + "/pulsebar/config", text)
  }

  /// Keys only the daemon reads are never parsed by listen: a typo there, an unknown section
  /// or a bad value change nothing (it exited 2 on them).
  @Test func aTypoInADaemonKeyDoesNotMatter() throws {
    try withTemporaryDirectory { directory in
      try Self.writeUserConfig(
        directory, "[analysis]\nsensitivty = 3\n[bogus]\nx = 1\n[output]\nmarkup = nope\n")
      let listen = try Self.listen([], directory: directory, socket: directory + "/none.sock")
      let line = listen.readLine(timeout: 5)
      #expect(line?.hasPrefix("Ø") == true, "\(line ?? "none"); stderr: \(listen.standardError)")
      #expect(!listen.standardError.contains("sensitivty"))
      listen.send(SIGTERM)
      #expect(try listen.waitForExit(timeout: 5) == 0)
    }
  }

  /// A bad value in a key listen reads: one note with FILE:LINE, error lines of the live width
  /// (class `error`, the message in the tooltip) while it lasts, and the offline line once the
  /// file is fixed, all without exiting.
  @Test func aBrokenClientKeyShowsAnErrorLineUntilFixed() throws {
    try withTemporaryDirectory { directory in
      try Self.writeUserConfig(directory, "# mine\n[general]\nbars = many\n")
      let listen = try Self.listen(
        ["--format", "waybar"], directory: directory, socket: directory + "/none.sock")
      let lines = listen.readLines(for: 2.5)
      #expect(lines.count >= 2, "error lines: \(lines); stderr: \(listen.standardError)")
      let first = try #require(lines.first.flatMap(JSONValue.parse))
      #expect(first["class"]?.array?.first?.string == "error")
      #expect(first["tooltip"]?.string?.contains("pulsebar/config:3: general.bars") == true)
      let text = try #require(first["text"]?.string)
      #expect(text == "!" + String(repeating: "\u{2007}", count: 16), "the default line's 17 cells")
      let notes = listen.standardError.split(separator: "\n")
      #expect(notes.count == 1 && notes.first?.contains("config:3:") == true, "\(notes)")
      try Self.writeUserConfig(directory, "[general]\nbars = 8\n")
      let offline = listen.waitForLine(timeout: 5) { $0.contains("offline") }
      #expect(offline != nil, "no offline line after the fix")
      listen.send(SIGTERM)
      #expect(try listen.waitForExit(timeout: 5) == 0)
    }
  }

  /// A subscription the daemon refuses (7 bars in stereo) is an error line and a retry, not
  /// an exit (it exited 2).
  @Test func aRefusalIsAnErrorLine() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory)
      let daemon = try TestDaemon(
        audio: audio, socketPath: directory + "/s.sock", extra: ["--channels", "stereo"])
      let listen = try Self.listen(
        ["--format", "text", "--bars", "7"], directory: directory, socket: daemon.socketPath)
      let lines = listen.readLines(for: 1.5)
      #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("!\u{2007}") }, "\(lines)")
      #expect(listen.isRunning)
      #expect(listen.standardError.contains("bars must be even in stereo"))
      listen.send(SIGTERM)
      #expect(try listen.waitForExit(timeout: 5) == 0)
      #expect(try daemon.terminate() == 0)
    }
  }

  /// A daemon that serves its `max_clients` already: the note says so (it said "it went away"),
  /// and the bar shows the error line (`!`, class `error`, "too many clients"), not the
  /// offline one, whose tooltip says the daemon is not running.
  @Test func aFullDaemonIsNamed() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory)
      let config = directory + "/daemon.conf"
      try writeTextFile(config, "[socket]\nmax_clients = 1\n")
      let daemon = try TestDaemon(
        audio: audio, socketPath: directory + "/s.sock", extra: ["--config", config])
      let first = try SocketTestClient(path: daemon.socketPath, send: "\n")
      #expect(first.readLine() != nil)
      let listen = try Self.listen(
        ["--format", "text"], directory: directory, socket: daemon.socketPath)
      let refused = listen.waitForLine(timeout: 5) { $0.hasPrefix("!") }
      #expect(refused != nil)
      #expect(listen.standardError.contains(": too many clients"), "\(listen.standardError)")
      #expect(!listen.standardError.contains("went away"))
      #expect(!listen.standardError.contains("no daemon"))
      listen.send(SIGTERM)
      #expect(try listen.waitForExit(timeout: 5) == 0)
      let waybar = try Self.listen(
        ["--format", "waybar"], directory: directory, socket: daemon.socketPath)
      let line = waybar.waitForLine(timeout: 5) { $0.contains("\"class\":[\"error\"]") }
      #expect(line?.contains("too many clients") == true, "\(line ?? "none")")
      waybar.send(SIGTERM)
      #expect(try waybar.waitForExit(timeout: 5) == 0)
      #expect(try daemon.terminate() == 0)
    }
  }

  /// A socket that sends a line without end: listen drops it after 64 KiB, says so once, and
  /// connects again; its memory does not grow with what was sent.
  @Test func anEndlessLineIsDropped() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/s.sock"
      let server = try UnixSocket.listen(path: path)
      defer { server.closeQuietly() }
      let listen = try Self.listen(["--format", "text"], directory: directory, socket: path)
      var connections = 0
      var sent = 0
      var baseline = 0
      let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 65536)
      let deadline = ChildProcess.now() + 10
      while connections < 3 && ChildProcess.now() < deadline {
        guard let client = try server.accept() else {
          usleep(10000)
          continue
        }
        connections += 1
        if connections == 1 {
          usleep(300_000)
          baseline = try Self.residentKilobytes(of: listen.pid)
        }
        // Send until listen hangs up (EPIPE), at most 8 MiB.
        var open = true
        while open && sent < connections * (8 << 20) {
          let result = chunk.withUnsafeBytes { bytes in
            Result { () throws(Errno) in try client.send(bytes) }
          }
          switch result {
          case .success(let count): sent += count
          case .failure(.wouldBlock): usleep(1000)
          case .failure: open = false
          }
        }
        client.closeQuietly()
        #expect(!open, "listen kept reading an endless line (\(sent) bytes)")
      }
      #expect(connections == 3, "listen connected \(connections) times")
      // The budget: whatever the socket sends, at most 1 MB above listen's normal resident size.
      let resident = try Self.residentKilobytes(of: listen.pid)
      print(
        "listen after \(sent) bytes of one line: \(resident) kB resident, \(baseline) kB before")
      #expect(resident - baseline <= 1024, "\(resident) kB after, \(baseline) kB before")
      #expect(listen.isRunning)
      listen.send(SIGTERM)
      #expect(try listen.waitForExit(timeout: 5) == 0)
      #expect(listen.standardError.contains("a line longer than 65536 bytes"))
    }
  }

  /// `VmRSS` of `pid`, kB.
  static func residentKilobytes(of pid: pid_t) throws -> Int {
    let status = try readTextFile("/proc/\(pid)/status")
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
}

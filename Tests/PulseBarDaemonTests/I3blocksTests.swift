import Glibc
import PulseBarTestSupport
import Testing

/// The shipped i3blocks snippet in the real i3blocks (Debian's `i3blocks` 1.4, headless: it
/// prints the i3bar JSON protocol on stdout) against a daemon on a private PulseAudio server:
/// the block follows the music, shows the offline line when the daemon is killed, and comes
/// back with it.
@Suite("i3blocks runs the shipped snippet", .serialized)
struct I3blocksTests {
  /// The running i3blocks and the block texts it has shown.
  final class Bar {
    let process: ChildProcess

    init(config: String, environment: [String: String]) throws {
      process = try ChildProcess("i3blocks", ["-c", config], environment: environment)
    }

    deinit {
      kill(-process.pid, SIGTERM)
      process.send(SIGTERM)
      _ = try? process.waitForExit(timeout: 5)
    }

    /// The `pulsebar` block's `full_text` in each status line i3blocks prints within
    /// `seconds`, until `predicate` holds for one (included); `nil` texts are left out.
    func texts(for seconds: Double, until predicate: (String) -> Bool = { _ in false }) -> [String]
    {
      var texts: [String] = []
      _ = process.waitForLine(timeout: seconds) { line in
        guard let text = Self.blockText(line) else { return false }
        texts.append(text)
        return predicate(text)
      }
      return texts
    }

    /// The `full_text` of the block named `pulsebar` in one i3bar protocol line
    /// (`,[{…},{…,"full_text":"…","name":"pulsebar",…}]`).
    static func blockText(_ line: String) -> String? {
      var body = Substring(line)
      if body.hasPrefix(",") { body = body.dropFirst() }
      guard let blocks = JSONValue.parse(String(body))?.array else { return nil }
      for block in blocks where block["name"]?.string == "pulsebar" {
        return block["full_text"]?.string
      }
      return nil
    }
  }

  @Test func blockFollowsTheMusicShowsOfflineAndRecovers() throws {
    guard access("/usr/bin/i3blocks", X_OK) == 0 else {
      Issue.record("i3blocks is not installed (apt-get install i3blocks)")
      return
    }
    let server = try PrivatePulseServer()
    defer { server.stop() }
    let snippet = try readTextFile(PackageRoot.path + "/config/examples/i3blocks.conf")
    let config = server.directory + "/i3blocks.conf"
    try writeTextFile(config, snippet)
    // As a session runs it: `pulsebar` on PATH, the default socket in XDG_RUNTIME_DIR (the
    // private server's directory), no user config.
    var environment = server.environment
    environment["PATH"] =
      PackageRoot.path + "/.build/debug:" + (getenv("PATH").map { String(cString: $0) } ?? "/bin")
    environment["XDG_CONFIG_HOME"] = server.directory
    func startDaemon() throws -> ChildProcess {
      let daemon = try ChildProcess(
        TestDaemon.binary, ["run", "--input", "pulse", "--socket", "--no-stdout"],
        environment: environment)
      let socket = server.directory + "/pulsebar.sock"
      try #require(eventually(timeout: 10) { access(socket, F_OK) == 0 }, "no socket")
      return daemon
    }
    var daemon = try startDaemon()
    let bar = try Bar(config: config, environment: environment)
    let player = try server.play(file: try makeTestAudio(in: server.directory, seconds: 30))
    defer { player.send(SIGKILL) }

    // Music: the block shows the play glyph, and its bars move.
    let playing = bar.texts(for: 5) { $0.hasPrefix("► ") }
    #expect(playing.last?.hasPrefix("► ") == true, "block texts: \(playing.suffix(5))")
    let moving = bar.texts(for: 2)
    #expect(Set(moving).count >= 5, "the block barely changed in 2 s: \(moving.count) updates")
    print("i3blocks: \(moving.count) block updates in 2 s while music plays")
    #expect(moving.allSatisfy { $0.hasPrefix("► ") }, "\(moving.filter { !$0.hasPrefix("► ") })")

    // The daemon dies: the block shows the offline line, not the last playing frame.
    daemon.send(SIGKILL)
    _ = try daemon.waitForExit(timeout: 5)
    let killedAt = ChildProcess.now()
    let down = bar.texts(for: 8) { $0.hasPrefix("Ø") }
    #expect(
      down.last?.hasPrefix("Ø") == true,
      "after the kill: \(down.count) texts, last \(down.suffix(3))")
    print("i3blocks: offline line \(ChildProcess.now() - killedAt) s after the kill")

    // It comes back: so does the block, with the music.
    daemon = try startDaemon()
    let back = bar.texts(for: 10) { $0.hasPrefix("► ") }
    #expect(back.last?.hasPrefix("► ") == true, "after the restart: \(back.suffix(3))")
    daemon.send(SIGTERM)
    #expect(try daemon.waitForExit(timeout: 5) == 0)
  }

  /// `output.hide_when`: i3blocks 1.4 ignores an empty line, so the block stayed; listen writes
  /// a lone NUL there instead (i3blocks sets BLOCK_NAME), and the block leaves the status line.
  /// The blocks on either side stay, the snippet's click block too.
  @Test func hideWhenHidesTheBlock() throws {
    guard access("/usr/bin/i3blocks", X_OK) == 0 else {
      Issue.record("i3blocks is not installed (apt-get install i3blocks)")
      return
    }
    let server = try PrivatePulseServer()
    defer { server.stop() }
    let snippet = try readTextFile(PackageRoot.path + "/config/examples/i3blocks.conf")
    let config = server.directory + "/i3blocks.conf"
    try writeTextFile(
      config, "[left]\nfull_text=L\n\n" + snippet + "\n[right]\nfull_text=R\n")
    var environment = server.environment
    environment["PATH"] =
      PackageRoot.path + "/.build/debug:" + (getenv("PATH").map { String(cString: $0) } ?? "/bin")
    environment["XDG_CONFIG_HOME"] = server.directory
    let daemonConfig = server.directory + "/daemon.conf"
    try writeTextFile(daemonConfig, "[output]\nhide_when = not_playing\nhide_after = 1\n")
    let daemon = try ChildProcess(
      TestDaemon.binary,
      ["run", "--input", "pulse", "--socket", "--no-stdout", "--config", daemonConfig],
      environment: environment)
    defer {
      daemon.send(SIGTERM)
      _ = try? daemon.waitForExit(timeout: 5)
    }
    try #require(eventually(timeout: 10) { access(server.directory + "/pulsebar.sock", F_OK) == 0 })
    let bar = try Bar(config: config, environment: environment)
    var names: [String] = []
    func blockNames(_ line: String) -> [String] {
      var body = Substring(line)
      if body.hasPrefix(",") { body = body.dropFirst() }
      return JSONValue.parse(String(body))?.array?.compactMap { $0["name"]?.string } ?? []
    }
    // i3blocks leaves a block out until its first line: the stopped line first, then none.
    let shown = bar.process.waitForLine(timeout: 10) { blockNames($0).contains("pulsebar") }
    try #require(shown != nil, "the block never showed")
    let hidden = bar.process.waitForLine(timeout: 15) { line in
      names = blockNames(line)
      return names == ["left", "pulsebar-ctl", "right"]
    }
    #expect(hidden != nil, "the block never left the line: names \(names)")
  }
}

import Foundation
import PulseBarCore
import PulseBarSystem
import PulseBarTestSupport
import Testing

/// MPRIS players are untrusted: any program on the session bus can claim a player's name and
/// publish what it likes. A fake player (Tests/Fixtures/fake-mpris-player.py, python3-dbus)
/// misbehaves on a private session bus against the real daemon on a private PulseAudio.
@Suite("Hostile MPRIS players", .serialized)
struct HostilePlayerTests {
  /// The fake player script.
  static let script = PackageRoot.path + "/Tests/Fixtures/fake-mpris-player.py"

  /// A private audio server and bus, and the daemon on them (json on stdout).
  final class Desktop {
    let server: PrivatePulseServer
    let bus: PrivateSessionBus
    let daemon: ChildProcess
    private var players: [ChildProcess] = []

    init(format: String = "json", config: String = "") throws {
      server = try PrivatePulseServer()
      bus = try PrivateSessionBus(directory: server.directory)
      try #require(access(Binary.path, X_OK) == 0, "build pulsebar first: \(Binary.path)")
      let configPath = server.directory + "/pulsebar.conf"
      try PrivatePulseServer.writeFile(configPath, config)
      daemon = try ChildProcess(
        Binary.path,
        [
          "run", "--input", "pulse", "--format", format, "--bars", "8", "--config", configPath,
          "-v",
        ],
        environment: server.environment.merging(bus.environment) { $1 })
      try #require(daemon.readLine(timeout: 10) != nil, "no first frame: \(daemon.standardError)")
    }

    var environment: [String: String] { server.environment.merging(bus.environment) { $1 } }

    deinit { MPRISEndToEndTests.stop(players: players, daemon: daemon, bus: bus, server: server) }

    /// Starts a fake player with `arguments`; waits for its "ready" line (after "playing PID").
    @discardableResult
    func fake(_ arguments: [String]) throws -> ChildProcess {
      let player = try ChildProcess(
        "/usr/bin/python3", [HostilePlayerTests.script] + arguments, environment: environment)
      players.append(player)
      let ready = player.waitForLine(timeout: 10) { $0 == "ready" }
      try #require(ready == "ready", "the fake player did not start: \(player.standardError)")
      return player
    }

    /// Reads json frames until one satisfies `predicate`.
    func waitForFrame(timeout: Double, where predicate: ([String: Any]) -> Bool) -> [String: Any]? {
      var found: [String: Any]?
      _ = daemon.waitForLine(timeout: timeout) { line in
        guard let object = HostilePlayerTests.object(line), predicate(object) else { return false }
        found = object
        return true
      }
      return found
    }

    /// The daemon's CPU time so far, in seconds (utime + stime).
    var cpuSeconds: Double { HostilePlayerTests.cpuSeconds(of: daemon.pid) }
  }

  static func object(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
  }

  static func cpuSeconds(of pid: pid_t) -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // utime and stime are fields 14 and 15; after the ")" they are the 12th and 13th.
    let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
    return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  static func residentKilobytes(of pid: pid_t) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
  }

  @Test("a player that releases its name before answering never shows, and no ghost outranks")
  func ghostRace() throws {
    let desktop = try Desktop()
    try desktop.fake(["--name", "real", "--status", "Paused", "--title", "Real Song"])
    let real = desktop.waitForFrame(timeout: 10) { $0["player"] as? String == "real" }
    #expect(real != nil, "the real player never showed: \(desktop.daemon.standardError)")
    let ghost = try desktop.fake(["--name", "ghost", "--ghost", "--title", "Ghost Song"])
    #expect(ghost.readLine(timeout: 10) == "released", "the ghost was never asked")
    // Its late reply arrives 0.1 s after it let go of the name; give it ample time.
    let lines = desktop.daemon.readLines(for: 1.5)
    let ghostly = lines.filter { $0.contains("\"ghost\"") || $0.contains("Ghost Song") }
    #expect(ghostly.isEmpty, "a ghost frame: \(ghostly.first ?? "")")
    // A frame now (a status change forces one) still names the real, paused player.
    let after = try #require(
      desktop.waitForFrame(timeout: 5) { _ in true } ?? lines.last.flatMap(Self.object))
    #expect(after["player"] as? String == "real", "\(after)")
  }

  @Test("a 1 MB title, 100,000 artists and 10,000 keys: lines capped, memory flat")
  func metadataIsCapped() throws {
    let desktop = try Desktop(config: "[output]\ntitle_width = 20\n")
    // Settle, then note the daemon's memory.
    _ = desktop.daemon.readLines(for: 1)
    let before = Self.residentKilobytes(of: desktop.daemon.pid)
    try desktop.fake([
      "--name", "big", "--title-bytes", "1000000", "--artists", "100000", "--keys", "10000",
      "--status", "Paused",
    ])
    let frame = desktop.waitForFrame(timeout: 15) { $0["player"] as? String == "big" }
    let shown = try #require(frame, "the big player never showed: \(desktop.daemon.standardError)")
    #expect((shown["title"] as? String)?.utf8.count == 1000)
    let artist = try #require(shown["artist"] as? String)
    #expect(
      artist.utf8.count <= 1000 && artist.hasPrefix("Artist 0, Artist 1"), "\(artist.prefix(80))")
    let lines = desktop.daemon.readLines(for: 1)
    #expect(
      lines.allSatisfy { $0.utf8.count < 8192 },
      "a line of \(lines.map(\.utf8.count).max() ?? 0) bytes")
    let after = Self.residentKilobytes(of: desktop.daemon.pid)
    print(
      "MPRIS figure: RSS \(before) kB before a 1 MB title with 100,000 artists, \(after) kB after")
    #expect(after - before < 8 * 1024, "RSS grew from \(before) kB to \(after) kB")
  }

  @Test("a flood of PropertiesChanged: at most one frame per period, idle again at once")
  func floodIsMergedIntoFrames() throws {
    let desktop = try Desktop()
    let player = try desktop.fake([
      "--name", "flood", "--status", "Paused", "--flood", "10000", "--flood-seconds", "3",
    ])
    #expect(desktop.waitForFrame(timeout: 10) { $0["player"] as? String == "flood" } != nil)
    let cpuStart = desktop.cpuSeconds
    let start = ChildProcess.now()
    var counts: [Int: Int] = [:]
    var done: String?
    while done == nil && ChildProcess.now() - start < 15 {
      if let line = desktop.daemon.readLine(timeout: 0.05) {
        counts[Int(ChildProcess.now() - start), default: 0] += 1
        _ = line
      }
      if let line = player.readLine(timeout: 0.001), line.hasPrefix("flood done") { done = line }
    }
    let floodSeconds = ChildProcess.now() - start
    let cpu = (desktop.cpuSeconds - cpuStart) / floodSeconds * 100
    let sent = Int(done?.split(separator: " ").last ?? "") ?? 0
    print(
      "MPRIS figure: flood of \(Int(Double(sent) / floodSeconds)) signals/s: \(counts.values.max() ?? 0) lines in the busiest second, daemon \(String(format: "%.1f", cpu)) % of a core"
    )
    #expect(done != nil, "the flood never ended: \(player.standardError)")
    #expect(sent > 1000, "the fake player sent only \(sent) signals")
    #expect(
      (counts.values.max() ?? 0) <= 61, "lines per second: \(counts.sorted { $0.key < $1.key })")
    // Within a second of the flood's end the daemon is idle: no lines, no CPU.
    _ = desktop.daemon.readLines(for: 1)
    let quietStart = desktop.cpuSeconds
    let quiet = desktop.daemon.readLines(for: 2)
    let quietCPU = desktop.cpuSeconds - quietStart
    #expect(quiet.count <= 1, "\(quiet.count) lines after the flood")
    #expect(quietCPU <= 0.02, "\(quietCPU) s of CPU in the 2 s after the flood")
  }

  @Test("name churn: no player is left after it, and the daemon keeps up")
  func nameChurnLeavesNoGhosts() throws {
    let desktop = try Desktop()
    let churn = try desktop.fake([
      "--name", "churn", "--status", "Playing", "--churn", "100", "--churn-seconds", "4",
    ])
    let done = churn.waitForLine(timeout: 20) { $0.hasPrefix("churn done") }
    #expect(done != nil, "the churn never ended: \(churn.standardError)")
    // Every late reply has arrived by now (0.1 s late); a frame shows what is left.
    _ = desktop.daemon.readLines(for: 1)
    try desktop.fake(["--name", "witness", "--status", "Paused"])
    let frame = desktop.waitForFrame(timeout: 10) { $0["player"] != nil }
    #expect(
      frame?["player"] as? String == "witness", "a churned name is still shown: \(frame ?? [:])")
  }

  @Test("ctl asks every player at once: five hung players cost one second, not five")
  func controlIsNotStalledByHungPlayers() throws {
    let desktop = try Desktop()
    for index in 0..<5 { try desktop.fake(["--name", "hung\(index)", "--hang"]) }
    let good = try desktop.fake(["--name", "good", "--status", "Playing"])
    let start = ChildProcess.now()
    let result = try Binary.run(
      ["ctl", "play-pause"], environment: desktop.environment, timeout: 30)
    let elapsed = ChildProcess.now() - start
    print("MPRIS figure: ctl with 5 hung players and a good one took \(Int(elapsed * 1000)) ms")
    #expect(result.status == 0, "\(result.error)")
    #expect(good.readLine(timeout: 5) == "called PlayPause")
    // The budget is 1.2 s; asking one player after another cost a second per hung player.
    #expect(elapsed < 2.5, "ctl took \(elapsed) s")
    // The daemon gives up on a player that never answers after 2 s (sd-bus's default is 25 s)
    // and says so once at -v.
    let deadline = ChildProcess.now() + 10
    while !desktop.daemon.standardError.contains("did not answer") && ChildProcess.now() < deadline
    {
      _ = desktop.daemon.readLines(for: 0.2)
    }
    let said = desktop.daemon.standardError.split(separator: "\n").filter {
      $0.contains("org.mpris.MediaPlayer2.hung0 did not answer")
    }
    #expect(said.count == 1, "\(desktop.daemon.standardError)")
  }

  @Test("a player that does not answer at first is asked again: its title shows once it does")
  func aSilentPlayerIsAskedAgain() throws {
    let desktop = try Desktop()
    // Paused: it sends no signal that would show its title otherwise.
    let slow = try desktop.fake([
      "--name", "slow", "--status", "Paused", "--title", "Slow Song", "--answer-after", "3",
    ])
    #expect(slow.readLine(timeout: 10) == "ignored GetAll", "the player was never asked")
    // Its first GetAll times out after 2 s; it is asked again 2 s later, when it answers.
    let frame = desktop.waitForFrame(timeout: 20) {
      $0["player"] as? String == "slow" && $0["title"] as? String == "Slow Song"
    }
    #expect(frame != nil, "the title never showed: \(desktop.daemon.standardError)")
  }

  @Test("players.ignore and players.prefer choose the player shown and the one ctl controls")
  func ignoreAndPrefer() throws {
    let desktop = try Desktop(config: "[players]\nignore = loud\nprefer = quiet, other\n")
    try desktop.fake(["--name", "other", "--status", "Playing", "--title", "Other"])
    let quiet = try desktop.fake(["--name", "quiet", "--status", "Playing", "--title", "Quiet"])
    let loud = try desktop.fake(["--name", "loud", "--status", "Playing", "--title", "Loud"])
    // loud appeared last and plays, but it is ignored; quiet is preferred over other.
    let frame = desktop.waitForFrame(timeout: 10) { $0["player"] as? String == "quiet" }
    #expect(frame != nil, "quiet never became the active player")
    let lines = desktop.daemon.readLines(for: 1)
    #expect(!lines.contains { $0.contains("\"loud\"") }, "the ignored player was shown")
    // ctl reads the same config (XDG_CONFIG_HOME): the click goes to quiet, never to loud.
    let home = desktop.server.directory + "/home"
    try FileManager.default.createDirectory(
      atPath: home + "/pulsebar", withIntermediateDirectories: true)
    try "[players]\nignore = loud\nprefer = quiet, other\n".write(
      toFile: home + "/pulsebar/config", atomically: true, encoding: .utf8)
    var environment = desktop.environment
    environment["XDG_CONFIG_HOME"] = home
    let result = try Binary.run(["ctl", "play-pause"], environment: environment, timeout: 10)
    #expect(result.status == 0, "\(result.error)")
    #expect(quiet.readLine(timeout: 5) == "called PlayPause")
    #expect(loud.readLine(timeout: 0.5) == nil, "the ignored player was controlled")
  }

  @Test("a track change is read once: the signal's values, then the position alone")
  func aTrackChangeIsReadOnce() throws {
    let desktop = try Desktop()
    let player = try desktop.fake([
      "--name", "tracks", "--report-calls", "--position", "0", "--flood", "5",
      "--flood-seconds", "1",
    ])
    var calls: [String] = []
    let done = player.waitForLine(timeout: 10) { line in
      calls.append(line)
      return line.hasPrefix("flood done")
    }
    try #require(done != nil, "no flood: \(player.standardError)")
    let changes = Int(done?.split(separator: " ").last ?? "") ?? 0
    let title = "Flood \(changes)"
    let shown = desktop.waitForFrame(timeout: 5) { $0["title"] as? String == title }
    #expect(shown != nil, "the last track (\(title)) never showed")
    calls += player.readLines(for: 0.3)
    let start = try #require(calls.firstIndex(of: "flood start"))
    let during = calls[start...]
    #expect(changes >= 4, "\(calls)")
    #expect(!during.contains("GetAll"), "a GetAll after a track change: \(calls)")
    #expect(during.contains("Get Position"), "the position was not asked: \(calls)")
  }

  @Test("position: read from the player, extrapolated once a second while playing, Seeked followed")
  func positionFollowsThePlayer() throws {
    let desktop = try Desktop(format: "text", config: "[output]\ntext = {position}/{length}\n")
    let player = try desktop.fake([
      "--name", "pos", "--status", "Playing", "--length", "180000000", "--position", "60000000",
      "--seek-after", "4", "--seek-to", "150000000",
    ])
    // 1:00 at first, then whole seconds on, each line a second after the last.
    let first = desktop.daemon.waitForLine(timeout: 10) {
      $0.hasPrefix("1:0") && $0.hasSuffix("/3:00")
    }
    #expect(first != nil, "no position line: \(desktop.daemon.standardError)")
    let lines = desktop.daemon.readLines(for: 2.5).filter { $0.hasSuffix("/3:00") }
    #expect(lines.count >= 2 && lines.count <= 4, "\(lines)")
    #expect(Set(lines).count == lines.count, "a line repeated: \(lines)")
    #expect(player.waitForLine(timeout: 10) { $0 == "seeked" } != nil)
    let seeked = desktop.daemon.waitForLine(timeout: 5) { $0.hasPrefix("2:3") }
    #expect(seeked != nil, "Seeked was not followed")
  }

  @Test(
    "nonsense lengths are left out; controls never reach a text line",
    arguments: [("-5", "x"), ("18446744073709551615", "t"), ("3500000.5", "d"), ("0", "x")])
  func valuesAreValidated(length: String, type: String) throws {
    let desktop = try Desktop()
    try desktop.fake([
      "--name", "odd", "--status", "Paused", "--length", length, "--length-type", type,
    ])
    let frame = desktop.waitForFrame(timeout: 10) { $0["player"] as? String == "odd" }
    #expect(frame != nil)
    #expect(
      frame?["length"] == nil, "length \(length) (\(type)) shown as \(frame?["length"] ?? "")")
  }

  @Test("a valid length passes; control characters in a title become spaces in text")
  func controlCharactersInText() throws {
    let desktop = try Desktop(format: "text", config: "[output]\ntitle_width = 30\n")
    try desktop.fake([
      "--name", "ctl", "--status", "Paused", "--title", "A\u{1B}[31mB\u{9B}C\u{7F}D\u{202E}E\nF",
      "--length", "180000000",
    ])
    let line = desktop.daemon.waitForLine(timeout: 10) { $0.contains("A [31mB C D E F") }
    #expect(line != nil, "the title never showed as text: \(desktop.daemon.standardError)")
    let controls = (line ?? "").unicodeScalars.filter { UntrustedText.isControl($0.value) }
    #expect(controls.isEmpty)
  }
}

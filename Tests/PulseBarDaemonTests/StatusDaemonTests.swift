import Glibc
import PulseBarCore
import PulseBarSystem
import Testing

@testable import PulseBarDaemon

/// `pulsebar status` against a real daemon (`pulsebar run` on a socket, file input).
@Suite(.serialized) struct StatusDaemonTests {
  /// Every key the json answer has: what a client may learn, and nothing else (DaemonStatus).
  static let keys: Set<String> = [
    "version", "uptime", "config", "config_exists", "last_reload", "input", "source", "connected",
    "state",
    "player", "players", "clients", "subscriptions", "fps", "frames_last_second", "cpu_percent",
    "cpu_seconds",
  ]

  /// Asks the daemon at `path` for the json status; the answer and how long it took.
  func askJSON(_ path: String) throws -> (answer: JSONValue?, lines: [String], seconds: Double) {
    let started = monotonicSeconds()
    let client = try SocketTestClient(path: path, send: "status json\n")
    let (lines, closed) = client.readUntilClosed(timeout: 3)
    let seconds = monotonicSeconds() - started
    #expect(closed && lines.count == 1, "\(lines)")
    return (lines.first.flatMap(JSONValue.parse), lines, seconds)
  }

  @Test("answers within 100 ms while 64 clients read; the 65th still cannot subscribe")
  func answersWhileTheClientsAreFull() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory)
      // Two frames a second: an answer that waited for the next frame would take ~250 ms.
      let daemon = try TestDaemon(
        audio: audio, socketPath: directory + "/s.sock", extra: ["--fps", "2"])
      var clients: [SocketTestClient] = []
      for index in 0..<64 {
        let line = index < 32 ? "format=waybar bars=8\n" : "format=raw bars=4\n"
        clients.append(try SocketTestClient(path: daemon.socketPath, send: line))
      }
      #expect(clients.allSatisfy { $0.readLine() != nil }, "all 64 are served")
      var times: [Double] = []
      for _ in 0..<5 {
        let (answer, lines, seconds) = try askJSON(daemon.socketPath)
        times.append(seconds)
        let answered = try #require(answer, "not json: \(lines)")
        guard case .object(let members) = answered else { continue }
        #expect(Set(members.keys) == Self.keys)
        #expect(answered["clients"]?.number == 64)
        #expect(answered["version"]?.string == CommandTable.version)
        #expect(answered["input"]?.string == "file:" + audio)
        #expect(answered["fps"]?.number == 2)
        let readers = answered["subscriptions"]?.array ?? []
        let counts = readers.map {
          "\($0["format"]?.string ?? "?") \($0["bars"]?.number ?? 0) \($0["clients"]?.number ?? 0)"
        }
        #expect(counts.sorted() == ["raw 4.0 32.0", "waybar 8.0 32.0"])
        #expect(answered["players"]?.array == [])
      }
      times.sort()
      #expect(times[2] < 0.1, "status took \(times) s")
      #expect(times[4] < 1, "status took \(times) s")
      let refused = try SocketTestClient(path: daemon.socketPath, send: "\n")
      #expect(refused.readUntilClosed().lines == ["error: too many clients"])
      #expect(clients[63].readLine() != nil)
      var mode = stat()
      #expect(stat(daemon.socketPath, &mode) == 0 && mode.st_mode & 0o777 == 0o600)
      #expect(try daemon.terminate() == 0)
    }
  }

  @Test("pulsebar status prints it for people, and with --json as one object")
  func theCommandPrintsTheStatus() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory)
      // Where `pulsebar status` looks without --socket: $XDG_RUNTIME_DIR/pulsebar.sock.
      let daemon = try TestDaemon(audio: audio, socketPath: directory + "/pulsebar.sock")
      let reader = try SocketTestClient(
        path: daemon.socketPath, send: "format=json bars=16 fps=30\n")
      #expect(reader.readLine() != nil)
      let people = try Binary.run(["status", "--socket", daemon.socketPath], timeout: 10)
      #expect(people.status == 0, "\(people.error)")
      #expect(people.lines.first?.hasPrefix("pulsebar \(CommandTable.version), up ") == true)
      #expect(
        people.lines.contains("input:    file:\(audio); recording \(audio)"), "\(people.lines)")
      #expect(people.lines.contains("clients:  1: 1 × json 16 bars at 30 fps"), "\(people.lines)")
      let json = try Binary.run(["status", "--json", "--socket", daemon.socketPath], timeout: 10)
      #expect(json.status == 0 && json.lines.count == 1)
      #expect(json.lines.first.flatMap(JSONValue.parse)?["state"]?.string == "playing")
      let byDefault = try Binary.run(
        ["status"], environment: ["XDG_RUNTIME_DIR": directory], timeout: 10)
      #expect(byDefault.status == 0 && byDefault.lines.count == 8, "\(byDefault)")
      #expect(try daemon.terminate() == 0)
    }
  }

  @Test("with no daemon it says how to start one and exits 1")
  func noDaemon() throws {
    try withTemporaryDirectory { directory in
      let result = try Binary.run(
        ["status"], environment: ["XDG_RUNTIME_DIR": directory], timeout: 10)
      #expect(result.status == 1 && result.lines.isEmpty)
      #expect(
        result.error
          == "pulsebar status: no daemon at \(directory)/pulsebar.sock (No such file or directory); start it with `systemctl --user enable --now pulsebar.socket` (or `pulsebar run --socket --no-stdout`)\n"
      )
    }
  }

  /// The last reload's outcome, in text and json: none yet, then a failed one (the error with
  /// FILE:LINE; the old config stays), then one that worked.
  @Test func theLastReloadIsShown() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory, seconds: 30)
      let config = directory + "/config"
      try writeTextFile(config, "[general]\nbars = 8\n")
      let daemon = try TestDaemon(
        audio: audio, socketPath: directory + "/s.sock", extra: ["--config", config])
      let before = try askJSON(daemon.socketPath).answer
      #expect(before?["last_reload"] == .null)
      try writeTextFile(config, "[general]\nbras = 8\n")
      daemon.process.send(SIGHUP)
      #expect(eventually { daemon.process.standardError.contains("config not reloaded") })
      let failed = try askJSON(daemon.socketPath).answer?["last_reload"]
      #expect(failed?["ok"] == .bool(false), "\(String(describing: failed))")
      #expect(failed?["error"]?.string?.hasPrefix("\(config):2: unknown key 'bras'") == true)
      let text = try Binary.run(["status", "--socket", daemon.socketPath], timeout: 10)
      let line = text.lines.first { $0.hasPrefix("reload:") } ?? ""
      #expect(
        line.contains("ago, failed, the old config stays: \(config):2: unknown key"), "\(line)")
      try writeTextFile(config, "[general]\nbars = 8\n")
      daemon.process.send(SIGHUP)
      #expect(
        eventually {
          (try? askJSON(daemon.socketPath).answer?["last_reload"]?["ok"]) == .bool(true)
        })
      let worked = try Binary.run(["status", "--socket", daemon.socketPath], timeout: 10)
      #expect(
        worked.lines.contains { $0.hasPrefix("reload:") && $0.hasSuffix(" ago, ok") },
        "\(worked.lines)")
      #expect(try daemon.terminate() == 0)
    }
  }
}

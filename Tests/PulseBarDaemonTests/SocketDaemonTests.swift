import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarSystem
import PulseBarTestSupport
import Testing

@testable import PulseBarDaemon

/// `pulsebar run --socket` as a real process: clients, limits, signals, systemd.
@Suite(.serialized) struct SocketDaemonTests {
  @Test func twoClientsWithDifferentFormatsAndBarCountsGetConsistentFrames() throws {
    try withDaemon { daemon, directory, audio in
      let json8 = try SocketTestClient(path: daemon.socketPath, send: "format=json bars=8\n")
      let twin = try SocketTestClient(path: daemon.socketPath, send: "bars=8 format=json\n")
      let raw16 = try SocketTestClient(path: daemon.socketPath, send: "format=raw bars=16\n")
      let waybar = try SocketTestClient(path: daemon.socketPath, send: "format=waybar\n")
      pause(1)
      let jsonLines = (0..<20).compactMap { _ in json8.readLine() }
      #expect(jsonLines.count == 20)
      for line in jsonLines {
        let frame = try #require(JSONValue.parse(line), "not JSON: \(line)")
        #expect(frame["bars"]?.array?.count == 8, "\(line)")
        #expect(["playing", "paused", "stopped"].contains(frame["state"]?.string ?? ""), "\(line)")
      }
      // The same subscription is rendered once: both clients get the very same lines.
      let twinLines = (0..<40).compactMap { _ in twin.readLine() }
      let firstShared = try #require(twinLines.firstIndex(of: jsonLines[0]), "no common line")
      #expect(Array(twinLines[firstShared..<firstShared + 20]) == jsonLines)
      for _ in 0..<20 {
        let line = try #require(raw16.readLine())
        let values = line.split(separator: ";").compactMap { Int($0) }
        #expect(values.count == 16 && line.hasSuffix(";"), "\(line)")
        #expect(values.allSatisfy { (0...1000).contains($0) }, "\(line)")
      }
      for _ in 0..<20 {
        let line = try #require(waybar.readLine())
        let frame = try #require(JSONValue.parse(line), "not JSON: \(line)")
        #expect(frame["alt"]?.string == frame["class"]?.array?.first?.string, "\(line)")
        #expect(frame["text"]?.string != nil, "\(line)")
      }
    }
  }

  @Test func aReaderKeepsItsFrameRateBesideTwentyClientsThatNeverRead() throws {
    try withDaemon { daemon, directory, audio in
      let reader = try SocketTestClient(path: daemon.socketPath, send: "format=raw bars=32\n")
      pause(0.5)
      while reader.readLine(timeout: 0.01) != nil {}
      let alone = countLines(reader, for: 2)
      let rssBefore = daemon.residentKilobytes
      var stalled: [SocketTestClient] = []
      for index in 0..<20 {
        // Wide JSON frames fill the stalled clients' socket buffers and queues quickly.
        let bars = index % 2 == 0 ? 64 : 128
        stalled.append(
          try SocketTestClient(path: daemon.socketPath, send: "format=json bars=\(bars)\n"))
      }
      pause(3)  // long enough for every stalled socket buffer and queue to fill
      while reader.readLine(timeout: 0.01) != nil {}
      let rssFilled = daemon.residentKilobytes
      let crowded = countLines(reader, for: 2)
      pause(1)
      let rssLater = daemon.residentKilobytes
      print(
        "socket stall test: alone \(alone), crowded \(crowded) frames in 2 s; RSS \(rssBefore) → \(rssFilled) → \(rssLater) kB"
      )
      #expect(alone > 60, "only \(alone) frames in 2 s alone")
      #expect(
        Double(crowded) >= 0.95 * Double(alone), "alone \(alone), beside 20 stalled \(crowded)")
      // A sanitizer's shadow memory and quarantine make RSS say nothing about our queues.
      if Binary.sanitizer == nil {
        #expect(rssFilled - rssBefore < 16_384, "RSS grew \(rssFilled - rssBefore) kB")
        #expect(rssLater - rssFilled < 1024, "RSS still growing: \(rssFilled) → \(rssLater) kB")
      }
      _ = stalled
    }
  }

  @Test func junkOverlongAndUnknownFormatsAreRefusedWhileOthersCarryOn() throws {
    try withDaemon { daemon, directory, audio in
      let reader = try SocketTestClient(path: daemon.socketPath, send: "format=raw bars=32\n")
      #expect(reader.readLine() != nil)
      let cases = [
        ("\u{7f}ELF\u{2}\u{1}\u{1}\n", "error: binary data in subscription line"),
        (
          String(repeating: "bars=8 ", count: 60) + "\n",
          "error: subscription line longer than 256 bytes"
        ),
        ("format=xml\n", "error: unknown format 'xml' (text, waybar, json, raw)"),
        ("bars=0\n", "error: bars must be 1...512, got '0'"),
        ("volume=11\n", "error: unknown key 'volume' (format, bars, fps)"),
      ]
      for (line, reply) in cases {
        let bad = try SocketTestClient(path: daemon.socketPath, send: line)
        let (lines, closed) = bad.readUntilClosed()
        #expect(lines == [reply] && closed, "sent \(line.debugDescription)")
      }
      let stereo = try TestDaemon(
        audio: audio, socketPath: directory + "/stereo.sock", extra: ["--channels", "stereo"])
      let odd = try SocketTestClient(path: stereo.socketPath, send: "bars=7\n")
      #expect(odd.readUntilClosed().lines == ["error: bars must be even in stereo (got 7)"])
      #expect(try stereo.terminate() == 0)
      // The good reader never noticed.
      #expect(countLines(reader, for: 1) > 30)
      #expect(daemon.process.isRunning)
    }
  }

  @Test func the65thClientIsRefused() throws {
    try withDaemon { daemon, directory, audio in
      var clients: [SocketTestClient] = []
      for _ in 0..<64 { clients.append(try SocketTestClient(path: daemon.socketPath, send: "\n")) }
      #expect(clients.allSatisfy { $0.readLine() != nil }, "all 64 are served")
      let refused = try SocketTestClient(path: daemon.socketPath, send: "\n")
      let (lines, closed) = refused.readUntilClosed()
      #expect(lines == ["error: too many clients"] && closed)
      #expect(clients[63].readLine() != nil)
    }
  }

  @Test func sigtermExitsZeroAndRemovesTheSocketFile() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory)
      let daemon = try TestDaemon(audio: audio, socketPath: directory + "/s.sock")
      var status = stat()
      #expect(stat(daemon.socketPath, &status) == 0 && status.st_mode & 0o777 == 0o600)
      let client = try SocketTestClient(path: daemon.socketPath, send: "\n")
      #expect(client.readLine() != nil)
      #expect(try daemon.terminate() == 0)
      #expect(access(daemon.socketPath, F_OK) != 0, "socket file left behind")
      #expect(client.readUntilClosed(timeout: 2).closed)
      // SIGINT too.
      let again = try TestDaemon(audio: audio, socketPath: directory + "/s.sock")
      again.process.send(SIGINT)
      #expect(try again.process.waitForExit(timeout: 10) == 0)
      #expect(access(again.socketPath, F_OK) != 0)
    }
  }

  @Test func socketActivationThroughSystemdSocketActivate() throws {
    try #require(access("/usr/bin/systemd-socket-activate", X_OK) == 0)
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory)
      let path = directory + "/activated.sock"
      // No --socket: the passed listener is used anyway, and stays systemd's to remove.
      let daemon = try TestDaemon(
        audio: audio, socketPath: path, socketOption: false,
        launcher: ["systemd-socket-activate", "-l", path])
      let client = try SocketTestClient(path: path, send: "format=raw bars=4\n")
      let line = try #require(
        client.readLine(timeout: 5), "stderr: \(daemon.process.standardError)")
      #expect(line.split(separator: ";").count == 4)
      #expect(daemon.process.standardError.contains("socket systemd passed"))
      #expect(try daemon.terminate() == 0)
      #expect(access(path, F_OK) == 0, "the daemon removed a socket it does not own")
    }
  }

  @Test func aPassedDescriptorThatIsNotAListeningSocketIsRefused() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory, seconds: 2)
      // The shell's pid is the daemon's after exec, so LISTEN_PID names it; fd 3 is a file.
      let daemon = try ChildProcess(
        "sh",
        [
          "-c",
          "export LISTEN_PID=$$ LISTEN_FDS=1; exec \"$0\" run --input file:\"$1\" --no-stdout 3<\"$1\"",
          TestDaemon.binary, audio,
        ])
      #expect(try daemon.waitForExit(timeout: 10) == 1)
      #expect(daemon.standardError.contains("LISTEN_FDS: descriptor 3 is not a socket"))
    }
  }

  @Test func readyStatusWatchdogAndStoppingReachNotifySocket() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory)
      for notifyPath in [directory + "/notify", "@pulsebar-test-notify-\(getpid())"] {
        let notify = try NotifyListener(path: notifyPath)
        let daemon = try TestDaemon(
          audio: audio, socketPath: directory + "/s.sock",
          environment: ["NOTIFY_SOCKET": notifyPath, "WATCHDOG_USEC": "200000"])
        #expect(notify.waitFor("READY=1"), "\(notify.messages)")
        #expect(notify.messages.contains { $0.contains("STATUS=") })
        #expect(notify.waitFor("WATCHDOG=1", timeout: 1), "\(notify.messages)")
        daemon.process.send(SIGTERM)
        #expect(notify.waitFor("STOPPING=1"), "\(notify.messages)")
        #expect(try daemon.process.waitForExit(timeout: 10) == 0)
      }
    }
  }

  @Test func sighupWithABrokenConfigKeepsTheOldOne() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory)
      let config = directory + "/config"
      try writeTextFile(config, "[general]\nbars = 6\n")
      let notify = try NotifyListener(path: directory + "/notify")
      let daemon = try TestDaemon(
        audio: audio, socketPath: directory + "/s.sock", extra: ["--config", config],
        environment: ["NOTIFY_SOCKET": notify.path])
      let client = try SocketTestClient(path: daemon.socketPath, send: "format=raw\n")
      #expect(client.readLine()?.split(separator: ";").count == 6)
      try writeTextFile(config, "[general]\nbars = 6\nfps = fast\n")
      daemon.process.send(SIGHUP)
      #expect(notify.waitFor("RELOADING=1"), "\(notify.messages)")
      let logged = eventually { daemon.process.standardError.contains(config + ":3") }
      #expect(logged, "stderr: \(daemon.process.standardError)")
      #expect(daemon.process.isRunning)
      pause(0.2)
      while client.readLine(timeout: 0.01) != nil {}
      #expect(client.readLine()?.split(separator: ";").count == 6, "still serving the old config")
      // A good config is taken: the default subscription follows it for new clients.
      try writeTextFile(config, "[general]\nbars = 10\n")
      daemon.process.send(SIGUSR1)
      pause(0.5)
      #expect(daemon.process.isRunning)
      #expect(try daemon.terminate() == 0)
    }
  }

  @Test func listenSurvivesADaemonRestart() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory)
      let path = directory + "/s.sock"
      var daemon = try TestDaemon(audio: audio, socketPath: path)
      let listen = try ChildProcess(
        TestDaemon.binary, ["listen", "--socket", path, "--format", "waybar"])
      let first = try #require(listen.readLine(timeout: 5), "stderr: \(listen.standardError)")
      let live = ["playing", "paused", "stopped"]
      #expect(live.contains(JSONValue.parse(first)?["alt"]?.string ?? ""), "\(first)")
      // As wide as the live lines: Ø and figure spaces.
      let liveText = try StatusBarGlyphTests.waybarVisibleText(first)
      let padding = String(
        repeating: "\u{2007}", count: StatusBarGlyphTests.displayWidth(liveText) - 1)
      let offline =
        #"{"text":"Ø"# + padding
        + #"","alt":"offline","class":["offline"],"tooltip":"pulsebar is not running","percentage":0}"#
      #expect(try daemon.terminate() == 0)
      #expect(listen.waitForLine(timeout: 5) { $0 == offline } != nil, "no offline frame")
      // Written again at each attempt (polybar may miss a lone line), and nothing else.
      let meanwhile = listen.readLines(for: 1.5)
      #expect(!meanwhile.isEmpty && meanwhile.allSatisfy { $0 == offline }, "\(meanwhile)")
      daemon = try TestDaemon(audio: audio, socketPath: path)
      let back = listen.waitForLine(timeout: 5) {
        live.contains(JSONValue.parse($0)?["alt"]?.string ?? "")
      }
      #expect(back != nil, "listen did not reconnect; stderr: \(listen.standardError)")
      listen.send(SIGTERM)
      #expect(try listen.waitForExit(timeout: 5) == 0)
      #expect(try daemon.terminate() == 0)
    }
  }

  @Test func listenExitsZeroWhenItsReaderGoesAway() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory)
      let daemon = try TestDaemon(audio: audio, socketPath: directory + "/s.sock")
      let pipeline = try ChildProcess(
        "bash",
        [
          "-c",
          "set -o pipefail; \"$0\" listen --socket \"$1\" --format text | head -n 2 >/dev/null",
          TestDaemon.binary, daemon.socketPath,
        ])
      #expect(try pipeline.waitForExit(timeout: 10) == 0, "stderr: \(pipeline.standardError)")
      #expect(try daemon.terminate() == 0)
    }
  }

  /// `listen --fps 30` against a 60 fps daemon playing noise: at most 31 waybar lines a
  /// second, and none that differs from the one before only by a percentage under 5 points;
  /// json (which changes every frame) comes at 30 lines a second, against 60 at full rate.
  @Test func listenAt30FPSStaysInTheWaybarBudget() throws {
    try withDaemon { daemon, directory, audio in
      func rate(_ arguments: [String], seconds: Double = 3) throws -> [String] {
        let listen = try ChildProcess(
          TestDaemon.binary, ["listen", "--socket", daemon.socketPath] + arguments)
        defer { listen.send(SIGTERM) }
        #expect(listen.readLine(timeout: 5) != nil, "stderr: \(listen.standardError)")
        let lines = listen.readLines(for: seconds)
        print(
          "listen \(arguments.joined(separator: " ")): \(Double(lines.count) / seconds) lines/s")
        return lines
      }
      let waybar = try rate(["--format", "waybar", "--fps", "30"])
      #expect(Double(waybar.count) / 3 <= 31, "\(waybar.count) lines in 3 s")
      var percentageOnly = 0
      for (previous, line) in zip(waybar, waybar.dropFirst()) {
        guard case .object(var before) = try #require(JSONValue.parse(previous)),
          case .object(var after) = try #require(JSONValue.parse(line))
        else { continue }
        let moved = abs((before["percentage"]?.number ?? 0) - (after["percentage"]?.number ?? 0))
        before["percentage"] = nil
        after["percentage"] = nil
        if before == after {
          percentageOnly += 1
          #expect(moved >= 5, "a percentage-only line moved \(moved) points")
        }
      }
      print(
        "waybar at 30 fps: \(percentageOnly) of \(waybar.count) lines differ only in percentage")
      let json30 = try rate(["--format", "json", "--fps", "30"], seconds: 2).count
      #expect((50...62).contains(json30), "json at 30 fps: \(json30) lines in 2 s")
      let json60 = try rate(["--format", "json"], seconds: 2).count
      #expect(json60 > 100, "json at the daemon's 60 fps: \(json60) lines in 2 s")
    }
  }

  /// Daemon-side keys in `listen --config` get one warning naming them; the client keys in it
  /// (format here) are used.
  @Test func listenWarnsOnceAboutDaemonSideKeys() throws {
    try withTemporaryDirectory { directory in
      let config = directory + "/listen.conf"
      try writeTextFile(
        config,
        "[general]\nformat = json\nfps = 30\n[output]\nmarkup = pango\noffline_text = gone\n"
          + "[scene]\nsilence_timeout = 3\n")
      let listen = try ChildProcess(
        TestDaemon.binary, ["listen", "--config", config, "--socket", directory + "/none.sock"])
      let offline = try #require(listen.readLine(timeout: 5), "stderr: \(listen.standardError)")
      #expect(offline == #"{"state":"offline","text":"gone"}"#)
      listen.send(SIGTERM)
      #expect(try listen.waitForExit(timeout: 5) == 0)
      let warnings = listen.standardError.split(separator: "\n")
      #expect(
        warnings.first
          == "pulsebar listen: \(config): ignoring daemon-side keys (they configure `pulsebar run`): output.markup, scene.silence_timeout"
      )
      #expect(warnings.count == 2, "\(warnings)")  // and the one line about the missing daemon
    }
  }

  /// With no daemon, listen says so once on stderr (the path and how to start one) while it
  /// shows the offline frame and retries; with `XDG_RUNTIME_DIR` unset it says what it guessed.
  @Test func listenSaysOnceThatNoDaemonRuns() throws {
    try withTemporaryDirectory { directory in
      let socket = directory + "/none.sock"
      let listen = try ChildProcess(
        TestDaemon.binary, ["listen", "--format", "text", "--socket", socket])
      // Before any daemon: as wide as a default live line (2 + 8 bars + 1 + 6 bubble cells).
      let offline = "Ø" + String(repeating: "\u{2007}", count: 16)
      #expect(listen.readLine(timeout: 5) == offline)
      pause(1.6)  // retries at 0.1, 0.2, 0.4 and 0.8 s
      listen.send(SIGTERM)
      #expect(try listen.waitForExit(timeout: 5) == 0)
      #expect(
        listen.standardError
          == "pulsebar listen: no daemon at \(socket) (No such file or directory); start it with `systemctl --user enable --now pulsebar.socket` (or `pulsebar run --socket --no-stdout`); retrying meanwhile\n"
      )

      let guessing = try ChildProcess(
        "env", ["-u", "XDG_RUNTIME_DIR", TestDaemon.binary, "listen", "--format", "text"],
        environment: ["XDG_CONFIG_HOME": directory])
      #expect(guessing.readLine(timeout: 5) == offline)
      guessing.send(SIGTERM)
      _ = try guessing.waitForExit(timeout: 5)
      let first = guessing.standardError.split(separator: "\n").first ?? ""
      #expect(
        first
          == "pulsebar listen: XDG_RUNTIME_DIR is not set; using /run/user/\(getuid())/pulsebar.sock (where systemd puts the runtime directory of uid \(getuid())); set XDG_RUNTIME_DIR or [socket] path if the socket lives elsewhere"
      )
    }
  }

  private func countLines(_ client: SocketTestClient, for seconds: Double) -> Int {
    let deadline = monotonicSeconds() + seconds
    var count = 0
    while monotonicSeconds() < deadline {
      if client.readLine(timeout: max(0.001, deadline - monotonicSeconds())) != nil { count += 1 }
    }
    return count
  }
}

/// Writes `text` to `path`, replacing it.
func writeTextFile(_ path: String, _ text: String) throws {
  let raw = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  guard raw >= 0 else { throw Errno.current }
  let descriptor = FileDescriptor(rawValue: raw)
  defer { descriptor.closeQuietly() }
  try descriptor.writeAll(text)
}

import Glibc
import PulseBarCore
import PulseBarTestSupport
import Testing

@testable import PulseBarDaemon

/// A bar started before the daemon: `pulsebar listen`'s first line is already as wide as a
/// live line will be, worked out from the daemon's own template (its file's rendering keys),
/// in every format with a width; a template of unbounded width gets the width the last listen
/// of that socket saw; a bad key in the file does not bring back the default width.
@Suite struct ListenFirstWidthTests {
  static let bounded =
    "[general]\nbars = 12\n[output]\ntext = {glyph} {bars} {state} {volume} {position}/{length} {title:24}\n"

  /// Runs `pulsebar listen` with no daemon at `directory`/none.sock and returns its first line.
  static func firstLine(
    directory: String, format: OutputFormat, arguments: [String] = []
  ) throws -> String {
    let listen = try ChildProcess(
      TestDaemon.binary,
      ["listen", "--socket", directory + "/none.sock", "--format", format.rawValue] + arguments,
      environment: ["XDG_CONFIG_HOME": directory, "XDG_RUNTIME_DIR": directory])
    let first = listen.readLine(timeout: 5)
    listen.send(SIGTERM)
    _ = try listen.waitForExit(timeout: 5)
    return try #require(first, "stderr: \(listen.standardError)")
  }

  static func writeConfig(_ directory: String, _ text: String) throws {
    try Binary.shell("mkdir -p '\(directory)/pulsebar'")
    try writeTextFile(directory + "/pulsebar/config", text)
  }

  /// The known width of a template, as the daemon's renderer works it out.
  static func knownWidth(_ text: String, format: OutputFormat) throws -> Int {
    let configuration = try ConfigParser.parse(text, file: "config")
    return try #require(FrameRenderer(format: format, configuration: configuration).knownWidth)
  }

  @Test(arguments: [OutputFormat.text, .waybar])
  func theOfflineLineIsTheTemplatesWidthBeforeAnyLiveLine(format: OutputFormat) throws {
    try withTemporaryDirectory { directory in
      try Self.writeConfig(directory, Self.bounded)
      let expected = try Self.knownWidth(Self.bounded, format: format)
      #expect(expected == 1 + 1 + 12 + 1 + 12 + 1 + 4 + 1 + 4 + 1 + 4 + 1 + 24)
      let first = try Self.firstLine(directory: directory, format: format)
      #expect(first.hasPrefix(format == .text ? "Ø" : "{\"text\":\"Ø"), "\(first)")
      #expect(try ListenWidthTests.width(of: first, format: format) == expected, "\(first)")
    }
  }

  /// A bad value in a key the daemon reads (and listen reads for the width) or in one listen
  /// reads itself: the line says so and keeps the width.
  @Test func aConfigErrorKeepsTheWidth() throws {
    try withTemporaryDirectory { directory in
      let expected = try Self.knownWidth(Self.bounded, format: .text)
      // A bad client key: listen's error line, at the template's width.
      try Self.writeConfig(directory, Self.bounded + "[general]\nfps = 9999\n")
      let error = try Self.firstLine(directory: directory, format: .text)
      #expect(error.hasPrefix("!"), "\(error)")
      #expect(StatusBarGlyphTests.displayWidth(error) == expected, "\(error)")
    }
  }

  /// A template with a `{title}` without a width: its width is the one the last listen of the
  /// same socket and format saw, kept in the runtime directory; a bad rendering key in the
  /// file falls back to it too.
  @Test func anUnboundedTemplateGetsTheLastSeenWidth() throws {
    try withTemporaryDirectory { directory in
      try Self.writeConfig(directory, "[output]\ntext = {glyph} {bars} {title}\n")
      let memory = ListenWidthMemory(
        socketPath: directory + "/none.sock", format: .text, runtimeDirectory: directory)
      #expect(memory.recall() == nil)
      let before = try Self.firstLine(directory: directory, format: .text)
      memory.remember(57)
      #expect(memory.recall() == 57)
      let after = try Self.firstLine(directory: directory, format: .text)
      #expect(StatusBarGlyphTests.displayWidth(after) == 57, "\(after)")
      #expect(StatusBarGlyphTests.displayWidth(before) != 57)
      try Self.writeConfig(directory, "[output]\ntext = {glyph} {nope}\n")
      let broken = try Self.firstLine(directory: directory, format: .text)
      #expect(StatusBarGlyphTests.displayWidth(broken) == 57, "\(broken)")
      // Another format or socket has its own.
      let waybar = ListenWidthMemory(
        socketPath: directory + "/none.sock", format: .waybar, runtimeDirectory: directory)
      #expect(waybar.recall() == nil)
    }
  }

  /// listen remembers what it saw from a live daemon, for the next listen of that socket.
  @Test func aLiveWidthIsRememberedAcrossRestarts() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory)
      let config = directory + "/daemon.conf"
      try writeTextFile(config, "[output]\ntext = {glyph} {bars} {source}\n")
      try Self.writeConfig(directory, "[output]\ntext = {glyph} {bars} {source}\n")
      let path = directory + "/s.sock"
      let daemon = try TestDaemon(audio: audio, socketPath: path, extra: ["--config", config])
      let listen = try ChildProcess(
        TestDaemon.binary, ["listen", "--socket", path, "--format", "text"],
        environment: ["XDG_CONFIG_HOME": directory, "XDG_RUNTIME_DIR": directory])
      let live = try #require(listen.readLine(timeout: 5), "stderr: \(listen.standardError)")
      listen.send(SIGTERM)
      #expect(try listen.waitForExit(timeout: 5) == 0)
      daemon.process.send(SIGKILL)
      _ = try? daemon.process.waitForExit(timeout: 5)
      let memory = ListenWidthMemory(socketPath: path, format: .text, runtimeDirectory: directory)
      #expect(memory.recall() == StatusBarGlyphTests.displayWidth(live), "\(live)")
      let restarted = try ChildProcess(
        TestDaemon.binary, ["listen", "--socket", path, "--format", "text"],
        environment: ["XDG_CONFIG_HOME": directory, "XDG_RUNTIME_DIR": directory])
      let offline = try #require(restarted.readLine(timeout: 5))
      restarted.send(SIGTERM)
      _ = try restarted.waitForExit(timeout: 5)
      #expect(offline.hasPrefix("Ø"))
      #expect(StatusBarGlyphTests.displayWidth(offline) == StatusBarGlyphTests.displayWidth(live))
    }
  }
}

import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarSystem
import PulseBarTestSupport
import Testing

@testable import PulseBarDaemon

/// Each status-bar recipe in config/examples: its command line, run as that bar runs it
/// (`sh -c`, `pulsebar` found on PATH, the default socket under XDG_RUNTIME_DIR), against a
/// live daemon and with none, its output parsed the way that bar parses it.
@Suite(.serialized) struct SocketExampleTests {
  /// A recipe: the file, how to pull its command out, and how its bar reads a line.
  struct Recipe: CustomStringConvertible, Sendable {
    var file: String
    var command: @Sendable (String) -> String?
    var checkLive: @Sendable (String) -> Bool
    var checkOffline: @Sendable (String) -> Bool
    var description: String { file }
  }

  static let recipes: [Recipe] = [
    Recipe(
      file: "waybar-config.jsonc",
      command: { text in
        guard text.contains(#""return-type": "json""#) else { return nil }
        return value(in: text, after: #""exec": ""#, until: "\"")
      },
      checkLive: { line in
        // waybar's custom module with return-type json: one object per line.
        guard let frame = JSONValue.parse(line), frame["text"]?.string != nil,
          let alt = frame["alt"]?.string, ["playing", "paused", "stopped"].contains(alt),
          let classes = frame["class"]?.array, classes.contains(.string(alt))
        else { return false }
        return frame["percentage"]?.number.map { (0...100).contains($0) } ?? false
      },
      checkOffline: { line in
        let frame = JSONValue.parse(line)
        return frame?["class"]?.array == [.string("offline")]
          && frame?["text"]?.string.map(isPaddedOffline) == true
      }),
    Recipe(
      file: "polybar.ini",
      command: { text in
        guard text.contains("\ntail = true"), text.contains("\ntype = custom/script") else {
          return nil
        }
        return value(in: text, after: "\nexec = ", until: "\n")
      },
      checkLive: isPlainTextFrame, checkOffline: isPaddedOffline),
    Recipe(
      file: "i3blocks.conf",
      command: { text in
        guard text.contains("\ninterval=persist") else { return nil }
        return value(in: text, after: "\ncommand=", until: "\n")
      },
      checkLive: isPlainTextFrame, checkOffline: isPaddedOffline),
    Recipe(
      file: "eww.yuck",
      command: { text in
        guard let form = value(in: text, after: "(deflisten pulsebar", until: ")") else {
          return nil
        }
        return value(in: form, after: "`", until: "`")
      },
      checkLive: { line in
        // deflisten with JSON: each line is the variable's new value.
        guard let frame = JSONValue.parse(line), let bars = frame["bars"]?.array else {
          return false
        }
        let state = frame["state"]?.string ?? ""
        return ["playing", "paused", "stopped"].contains(state) && bars.count == 16
          && bars.allSatisfy { $0.number.map { (0...1).contains($0) } ?? false }
      },
      checkOffline: { JSONValue.parse($0)?["state"]?.string == "offline" }),
  ]

  @Test(arguments: recipes)
  func recipeWorksAgainstALiveDaemonAndWithout(_ recipe: Recipe) throws {
    let text = try readTextFile(PackageRoot.path + "/config/examples/" + recipe.file)
    let command = try #require(recipe.command(text), "no command found in \(recipe.file)")
    #expect(command.hasPrefix("pulsebar listen "))
    try withTemporaryDirectory { directory in
      let environment = [
        "XDG_RUNTIME_DIR": directory,
        "PATH": PackageRoot.path + "/.build/debug:" + (environment("PATH") ?? "/usr/bin:/bin"),
        "XDG_CONFIG_HOME": directory,  // no user config: defaults
      ]
      // No daemon yet: the offline frame, so the module shows something sane.
      let bar = try ChildProcess("sh", ["-c", command], environment: environment)
      defer { kill(-bar.pid, SIGTERM) }
      let offline = try #require(bar.readLine(timeout: 5), "stderr: \(bar.standardError)")
      #expect(recipe.checkOffline(offline), "offline line: \(offline)")
      // A daemon on the default socket: the same command picks it up.
      let audio = try makeTestAudio(in: directory)
      let daemon = try TestDaemon(
        audio: audio, socketPath: directory + "/pulsebar.sock", extra: ["--socket"],
        environment: environment, socketOption: false)
      // The offline line is written at each reconnection attempt until the daemon answers.
      let firstLive = bar.waitForLine(timeout: 10) { !recipe.checkOffline($0) }
      let lines =
        [firstLive].compactMap { $0 } + (0..<9).compactMap { _ in bar.readLine(timeout: 5) }
      #expect(lines.count == 10, "stderr: \(bar.standardError)")
      for line in lines { #expect(recipe.checkLive(line), "live line: \(line)") }
      #expect(try daemon.terminate() == 0)
    }
  }

  @Test func waybarStyleHasEveryStateClass() throws {
    let css = try readTextFile(PackageRoot.path + "/config/examples/waybar-style.css")
    for state in ["playing", "paused", "stopped", "offline", "disconnected", "error"] {
      #expect(css.contains("#custom-pulsebar.\(state) {"), "no rule for \(state)")
    }
  }

  /// Every click and scroll action in the snippets is a `pulsebar ctl` command that parses (no
  /// playerctl needed), and the waybar and polybar ones toggle play/pause on a click.
  @Test(arguments: ["waybar-config.jsonc", "polybar.ini"])
  func clickActionsArePulsebarCtl(_ file: String) throws {
    let text = try readTextFile(PackageRoot.path + "/config/examples/" + file)
    // Comments aside: the settings a bar reads.
    let settings = text.split(separator: "\n").filter { line in
      let start = line.drop { $0 == " " }
      return !start.hasPrefix("//") && !start.hasPrefix(";") && !start.hasPrefix("#")
    }
    #expect(!settings.contains { $0.contains("playerctl") })
    var commands: [String] = []
    for line in settings where line.contains("pulsebar ctl") {
      let start = try #require(line.firstRange(of: "pulsebar ctl"))
      let command = line[start.lowerBound...].prefix { $0 != "\"" && $0 != "\n" }
      commands.append(String(command))
    }
    #expect(commands.contains("pulsebar ctl play-pause"), "\(file): \(commands)")
    for command in commands {
      let arguments = command.split(separator: " ").dropFirst().map(String.init)
      #expect(throws: Never.self, "\(command)") { try CommandLineParser.parse(arguments) }
    }
  }

  /// The text format: a morph glyph, a space, then bar glyphs; one line, no JSON.
  /// The default offline text padded with figure spaces to a default live line's 17 cells.
  @Sendable static func isPaddedOffline(_ text: String) -> Bool {
    text == "Ø" + String(repeating: "\u{2007}", count: 16)
  }

  @Sendable static func isPlainTextFrame(_ line: String) -> Bool {
    let glyphs = Set("▁▂▃▄▅▆▇█")
    let parts = line.split(separator: " ", maxSplits: 1)
    return parts.count == 2 && parts[1].prefix(8).allSatisfy { glyphs.contains($0) }
  }

  /// The text between `start` and the next `end` after it.
  static func value(in text: String, after start: String, until end: Character) -> String? {
    var rest = Substring(text)
    while !rest.isEmpty && !rest.hasPrefix(start) { rest = rest.dropFirst() }
    guard !rest.isEmpty else { return nil }
    rest = rest.dropFirst(start.count)
    guard let stop = rest.firstIndex(of: end) else { return nil }
    return String(rest[..<stop])
  }
}

import Glibc
import PulseBarCore
import PulseBarTestSupport
import Testing

@testable import PulseBarDaemon

/// `pulsebar listen`'s offline line keeps the module's width, and its notes never reach the
/// bar's text (polybar reads stderr through the stdout pipe).
@Suite struct ListenWidthTests {
  /// Before any frame: the offline line has the width a live line of the same configuration
  /// has, in the text and waybar formats (bars, bubbles on and off, a title area).
  @Test(arguments: [(8, 6, 0), (16, 6, 0), (8, 0, 0), (12, 3, 20)])
  func offlineLineHasTheLiveWidthBeforeAnyFrame(bars: Int, bubbleMax: Int, titleWidth: Int)
    throws
  {
    for format in [OutputFormat.text, .waybar] {
      let configure: (inout Configuration) -> Void = {
        $0.bars = bars
        $0.bubbleMax = bubbleMax
        $0.titleWidth = titleWidth
      }
      var configuration = Configuration()
      configure(&configuration)
      let live = StatusBarGlyphTests.scriptedLines(format: format, bars: bars, configure: configure)
      let liveWidths = try Set(live.map { try Self.width(of: $0, format: format) })
      #expect(liveWidths.count == 1, "\(format): live widths \(liveWidths)")
      let width = LiveLineWidth(format: format, bars: bars, configuration: configuration)
      let offline = ListenCommand.offlineFrame(
        format: format, bars: bars, configuration: configuration, width: width)
      let offlineWidth = try Self.width(of: String(offline.dropLast()), format: format)
      #expect([offlineWidth] == liveWidths, "\(format) bars \(bars) bubbles \(bubbleMax)")
      #expect(offline.hasPrefix(format == .text ? "Ø\u{2007}" : "{\"text\":\"Ø\u{2007}"))
    }
  }

  /// The width is learned from what the daemon sends: waybar's text without Pango tags and
  /// with entities decoded, a text line's cells; an empty (hidden) text keeps the last width.
  @Test func widthIsLearnedFromTheLines() {
    var waybar = LiveLineWidth(format: .waybar, bars: 8, configuration: Configuration())
    #expect(waybar.cells == 17)
    waybar.learn(
      from: Array(
        #"{"text":"► ▁▂ <span alpha=\"50%\">○</span>\u2007 a &amp; b","class":["playing"]}"#
          .utf8))
    #expect(waybar.cells == 13, "► ▁▂ ○, a figure space, then a & b")
    waybar.learn(from: Array(#"{"text":"","class":["hidden"]}"#.utf8))
    #expect(waybar.cells == 13)
    #expect(waybar.padded("Ø") == "Ø" + String(repeating: "\u{2007}", count: 12))
    var text = LiveLineWidth(format: .text, bars: 8, configuration: Configuration())
    text.learn(from: Array("► ▁▂▃ 日本".utf8))
    #expect(text.cells == 10)
    let json = LiveLineWidth(format: .json, bars: 8, configuration: Configuration())
    #expect(json.cells == nil && json.padded("Ø") == "Ø")
  }

  /// The width of a text line is its visible cells in whatever markup the daemon writes
  /// (Pango, polybar, ANSI, read from the line), never its bytes; a padded offline line stays
  /// within 1,000 bytes and whole characters (i3blocks cuts at 1,024).
  @Test(arguments: [
    ##"<span foreground="#ff0000">►</span> ▁▂ 日本 a &amp; b"##,
    "%{F#ff0000}►%{F-} ▁▂ 日本 a & b",
    "\u{1B}[38;2;255;0;0m►\u{1B}[39m ▁▂ 日本 a & b",
    "► ▁▂ 日本 a & b",
  ])
  func textWidthIsVisibleCellsInEveryMarkup(line: String) {
    var width = LiveLineWidth(format: .text, bars: 8, configuration: Configuration())
    width.learn(from: Array(line.utf8))
    #expect(width.cells == 15, "\(line.debugDescription)")
    width.learn(from: Array(String(repeating: "日", count: 900).utf8))
    #expect(width.cells == 1800)
    let padded = width.padded("Ø語")
    #expect(padded.utf8.count <= 1000 && padded.utf8.count > 996, "\(padded.utf8.count) bytes")
    #expect(padded.hasPrefix("Ø語\u{2007}") && padded.hasSuffix("\u{2007}"))
    let long = width.padded("Ø" + String(repeating: "語", count: 400))
    #expect(long.utf8.count == 998 && long.hasSuffix("語"), "cut between characters")
  }

  /// A daemon whose lines are wider than the listener's config says (a title area): once its
  /// frames arrived and it is killed, the offline line has their width.
  @Test func offlineLineHasTheWidthTheDaemonSent() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory)
      let config = directory + "/daemon.conf"
      try writeTextFile(config, "[output]\ntitle_width = 20\n")
      let path = directory + "/s.sock"
      let daemon = try TestDaemon(audio: audio, socketPath: path, extra: ["--config", config])
      let listen = try ChildProcess(
        TestDaemon.binary, ["listen", "--socket", path, "--format", "text"],
        environment: ["XDG_CONFIG_HOME": directory])
      let first = try #require(listen.readLine(timeout: 5), "stderr: \(listen.standardError)")
      #expect(StatusBarGlyphTests.displayWidth(first) == 17 + 21, "\(first)")
      daemon.process.send(SIGKILL)
      let offline = listen.waitForLine(timeout: 5) { $0.hasPrefix("Ø") }
      #expect(offline.map(StatusBarGlyphTests.displayWidth) == 38, "\(offline ?? "none")")
      listen.send(SIGTERM)
      #expect(try listen.waitForExit(timeout: 5) == 0)
    }
  }

  /// stdout and stderr on one pipe (polybar's custom/script): the pipe carries frames only,
  /// never the "no daemon" note (that goes to the journal).
  @Test func notesStayOutOfASharedPipe() throws {
    try withTemporaryDirectory { directory in
      let listen = try ChildProcess(
        "sh",
        [
          "-c", #"exec "$0" listen --format text --socket "$1" 2>&1"#, TestDaemon.binary,
          directory + "/none.sock",
        ])
      let lines = listen.readLines(for: 1)
      listen.send(SIGTERM)
      #expect(try listen.waitForExit(timeout: 5) == 0)
      let offline = "Ø" + String(repeating: "\u{2007}", count: 16)
      #expect(!lines.isEmpty && lines.allSatisfy { $0 == offline }, "\(lines)")
      #expect(listen.standardError.isEmpty)
    }
  }

  /// Visible cells of one line: the text line, or waybar's text without markup.
  static func width(of line: String, format: OutputFormat) throws -> Int {
    let text = format == .text ? line : try StatusBarGlyphTests.waybarVisibleText(line)
    return StatusBarGlyphTests.displayWidth(
      text.replacing("&amp;", with: "&").replacing("&lt;", with: "<").replacing("&gt;", with: ">"))
  }
}

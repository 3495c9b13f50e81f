import Glibc
import PulseBarCore
import PulseBarTestSupport
import Testing

/// A real player's title through the shipped polybar recipe and font list, beside two
/// reference modules polybar draws from the config: the title as it should look (Arabic in
/// display order, its letters joined; braces and percents as they are), and as it used to
/// look (Arabic in reading order, unshaped; a space before a `{`). The module's ink matches the first to the pixel and
/// not the second.
@Suite("polybar draws right-to-left and brace titles as their characters", .serialized)
struct PolybarScriptsTests {
  static let width = 24

  /// A module drawn from the config's own text between markers of its own colours.
  static func textModule(_ name: String, _ content: String) -> String {
    "\n[module/\(name)]\ntype = custom/text\ncontent = \"\(content)\"\n"
  }

  static func marker(_ name: String, _ color: BarScreenshot.Color) -> String {
    "\n[module/\(name)]\ntype = custom/text\ncontent = \"  \"\ncontent-background = \(color)\n"
  }

  /// `text` padded with figure spaces to the field's cells.
  static func padded(_ text: String) -> String {
    text + String(repeating: "\u{2007}", count: max(0, width - TextCells.width(of: text)))
  }

  @Test(
    .enabled(if: PolybarTests.missing == nil, "\(PolybarTests.missing ?? "")"),
    arguments: [
      ("arabic", "بيت الحب لا", true), ("hebrew", "שיר אהבה 2024", true),
      ("braces", "{title} {{x}} 100%{F-}", false),
    ])
  func theTitleIsDrawnAsItsCharacters(name: String, title: String, rightToLeft: Bool) throws {
    if rightToLeft { try #require(BidiText.isAvailable, "libfribidi0 is in the test stack") }
    let desktop = try RealBarDesktop(
      monospace: "DejaVu Sans Mono", daemonConfig: "[output]\ntext = {title:\(Self.width)}\n",
      title: title)
    try desktop.startDaemon()
    try desktop.play(title: title)
    #expect(desktop.waitForState("playing"), "the daemon never played")
    // What polybar should draw, and what it drew before (reading order, unshaped); in the
    // config's own text a `%{` is broken as pulsebar breaks it.
    let expected = rightToLeft ? BidiText.visual(title) : title
    // Braces: a space before the leading `{` and between `%` and `{`, as they were broken.
    let before =
      rightToLeft
      ? title : " " + title.replacing("%{", with: "% {")
    let configText = { (text: String) in text.replacing("%{", with: "%%{O0}{") }
    let colors: [BarScreenshot.Color] = [
      .init(0xff00ff), .init(0x00ffff), .init(0xff0080), .init(0x00ff80), .init(0x8000ff),
      .init(0x80ff00),
    ]
    var config = try PolybarFonts.bar(
      "scripts", modules: "modules-left = l0 pulsebar r0 l1 expected r1 l2 before r2")
    let snippet = try readTextFile(Binary.packageRoot + "/config/examples/polybar.ini")
    config += snippet
    config += Self.marker("l0", colors[0]) + Self.marker("r0", colors[1])
    config += Self.marker("l1", colors[2]) + Self.marker("r1", colors[3])
    config += Self.marker("l2", colors[4]) + Self.marker("r2", colors[5])
    config += Self.textModule("expected", configText(Self.padded(expected)))
    config += Self.textModule("before", configText(Self.padded(before)))
    let bar = try PolybarTests.Polybar(
      desktop: desktop, name: "polybar", config: config, bar: "scripts")
    var matched = false
    var last: (Int, [Int], [Int], [Int])?
    let deadline = ChildProcess.now() + 20
    while !matched && ChildProcess.now() < deadline {
      let shot = try bar.screenshot()
      guard let rows = shot.rows(of: colors[0]) else { continue }
      let row = (rows.lowerBound + rows.upperBound) / 2
      guard let module = shot.moduleBox(row: row, between: colors[0], and: colors[1]),
        let reference = shot.moduleBox(row: row, between: colors[2], and: colors[3]),
        let before = shot.moduleBox(row: row, between: colors[4], and: colors[5])
      else { continue }
      let drawn = shot.inkProfile(in: module, rows: rows)
      let wanted = shot.inkProfile(in: reference, rows: rows)
      let old = shot.inkProfile(in: before, rows: rows)
      last = (module.count, drawn, wanted, old)
      matched = drawn == wanted && drawn != old
      if matched, let shots = getenv("PULSEBAR_SCREENSHOTS").map({ String(cString: $0) }) {
        try? shot.writePNG(to: "\(shots)/polybar-\(name).png")
      }
      if !matched { usleep(300_000) }
    }
    #expect(
      matched,
      "\(name): the module's ink \(last.map { "\($0.1)" } ?? "none"), expected \(last.map { "\($0.2)" } ?? "none") \(RealBarChecks.describe(bar))"
    )
    let dropped = bar.log().filter { $0.contains("Dropping unmatched") }
    #expect(dropped.isEmpty, "\(dropped.prefix(3))")
  }
}

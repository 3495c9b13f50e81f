import Glibc
import PulseBarTestSupport
import Testing

/// The now-playing recipe (`config/examples/now-playing.conf` with the shipped bar snippets,
/// docs/RECIPES.md) in the real Waybar (headless sway), polybar (Xvfb) and i3blocks (drawn by
/// swaybar on headless sway), with real mpv (mpv-mpris) playing a track with a synced lyric and
/// a `cover.png` beside it: the title scrolls (its cells differ between two screenshots), the
/// lyric's line is drawn, and the bars are drawn in the colour json's `art_colors` reports.
@Suite("The now-playing recipe in the real bars", .serialized)
struct NowPlayingRecipeTests {
  /// Longer than the recipe's 24 cells: it scrolls.
  static let title = "A Song Whose Title Is Far Too Long For Its Field"
  /// A line every 6 s, each 26 cells: the screenshots check where the line's ink ends.
  static let lyric = [
    "the first line of the song", "a second line, 6 s into it", "the third line, at 12 s in",
    "a fourth line, 18 s in now", "and the last line, at 24 s",
  ]
  /// The cover's one colour.
  static let cover = "#e02020"
  /// The recipe's line in cells: glyph, bars, the title's 24, ` · `, the lyric's 32.
  static let cells = (title: 11..<35, lyric: 38..<70, all: 70)

  /// The shipped recipe with `markup` as its comment says for the bar.
  static func recipe(markup: String) throws -> String {
    let text = try readTextFile(Binary.packageRoot + "/config/examples/now-playing.conf")
    #expect(text.contains("\nmarkup = pango\n"))
    return text.replacing("\nmarkup = pango\n", with: "\nmarkup = \(markup)\n")
  }

  /// A real-bar desktop whose daemon runs the recipe, with `song.lrc` and `cover.png` beside
  /// the track.
  static func desktop(markup: String) throws -> RealBarDesktop {
    let desktop = try RealBarDesktop(
      monospace: "DejaVu Sans Mono", daemonConfig: try recipe(markup: markup), title: title)
    let folder = desktop.server.directory
    // A line every 6 s: [00:00.00], [00:06.00], [00:12.00], …
    let lrc = lyric.enumerated().map { index, line in
      "[00:" + (index < 2 ? "0" : "") + "\(index * 6).00]" + line
    }
    try writeTextFile(
      folder + "/song.lrc", "[ti:A Song]\n[ar:The Band]\n" + lrc.joined(separator: "\n") + "\n")
    #expect(system("convert -size 64x64 xc:'\(cover)' '\(folder)/cover.png'") == 0)
    chmod(folder + "/song.lrc", 0o644)
    chmod(folder + "/cover.png", 0o644)
    return desktop
  }

  /// Starts the music; returns the palette json reports once a frame has the title, a lyric
  /// line and the art's colours.
  static func play(_ desktop: RealBarDesktop) throws -> [BarScreenshot.Color] {
    try desktop.play()
    let frame = desktop.waitForFrame(timeout: 30) {
      $0["title"]?.string == title && $0["lyric"]?.string != nil && $0["art_colors"] != nil
    }
    let gradient = frame?["art_colors"]?["gradient"]?.array?.compactMap(\.string) ?? []
    #expect(!gradient.isEmpty, "no frame with the title, a lyric and art colours")
    return gradient.compactMap { UInt32($0.dropFirst(), radix: 16).map(BarScreenshot.Color.init) }
  }

  /// The pixel columns of `cells` in the module's box (`padding` pixels each side).
  static func columns(_ cells: Range<Int>, of seen: RealBarChecks.Seen, padding: Int)
    -> Range<Int>
  {
    let cell = Double(seen.box.count - 2 * padding) / Double(Self.cells.all)
    let start = seen.box.lowerBound + padding
    return
      (start + Int(cell * Double(cells.lowerBound)))..<(start
      + Int(cell * Double(cells.upperBound)))
  }

  /// The screenshot checks: the art colour and the lyric drawn, then the title's cells moving
  /// within 8 s; saves the screenshot as `NAME-now-playing.png` for `make screenshots`.
  static func check(_ bar: RealBar, _ desktop: RealBarDesktop, name: String?, padding: Int)
    throws
  {
    let palette = try play(desktop)
    let drawn = try RealBarChecks.waitFor(bar, timeout: 20) { seen in
      palette.contains { seen.shot.shows($0, in: seen.box, rows: seen.rows) }
    }
    guard let (first, _) = drawn else {
      Issue.record(RealBarChecks.failure(bar, "the art colours \(palette) never drawn"))
      return
    }
    // A lyric line's ink: from the lyric's first cell to its 26th, none after.
    let lyricInk = first.shot.inkColumns(
      in: columns(cells.lyric, of: first, padding: padding), rows: first.rows)
    let firstCell = columns(38..<39, of: first, padding: padding)
    let lastCell = columns(63..<64, of: first, padding: padding)
    #expect(
      firstCell.contains(lyricInk.first ?? -1) && lastCell.contains(lyricInk.last ?? -1),
      RealBarChecks.failure(
        bar, "no 26-cell lyric line drawn from \(firstCell) to \(lastCell): ink \(lyricInk)"))
    let titleColumns = columns(cells.title, of: first, padding: padding)
    let before = first.shot.inkProfile(in: titleColumns, rows: first.rows)
    let moved = try RealBarChecks.waitFor(bar, timeout: 8) { seen in
      seen.box == first.box && seen.shot.inkProfile(in: titleColumns, rows: seen.rows) != before
    }
    #expect(moved != nil, RealBarChecks.failure(bar, "the title did not scroll in 8 s"))
    if let name, let shots = getenv("PULSEBAR_SCREENSHOTS").map({ String(cString: $0) }) {
      try (moved?.0 ?? first).shot.writePNG(to: "\(shots)/\(name)-now-playing.png")
    }
  }

  @Test(
    "Waybar: the title scrolls, the lyric's line and the art's colours are drawn",
    .enabled(if: WaybarTests.missing == nil, "\(WaybarTests.missing ?? "")"))
  func nowPlayingInWaybar() throws {
    let desktop = try Self.desktop(markup: "pango")
    try desktop.startDaemon()
    let bar = try WaybarTests.Waybar(desktop: desktop, name: "waybar (now playing)")
    // The shipped CSS pads the module with 8 px on either side.
    try Self.check(bar, desktop, name: "waybar", padding: 8)
  }

  @Test(
    "polybar: the title scrolls, the lyric's line and the art's colours are drawn",
    .enabled(if: PolybarTests.missing == nil, "\(PolybarTests.missing ?? "")"))
  func nowPlayingInPolybar() throws {
    let desktop = try Self.desktop(markup: "polybar")
    try desktop.startDaemon()
    let bar = try PolybarTests.Polybar(desktop: desktop, name: "polybar (now playing)")
    try Self.check(bar, desktop, name: "polybar", padding: 0)
  }

  /// What the i3blocks test needs besides what the long-line test does: mpv and ImageMagick.
  static var missing: String? {
    let absent = ["mpv", "convert"].filter { !BarSession.installed($0) }
    return I3blocksLongLineTests.missing
      ?? (absent.isEmpty ? nil : "not installed: \(absent.joined(separator: ", "))")
  }

  /// The shipped i3blocks snippet's `pulsebar` block with `markup=pango`, as docs/RECIPES.md
  /// says (the click block beside it left out, so the markers hold the module alone).
  static func i3blocksBlock() throws -> String {
    var snippet = try readTextFile(Binary.packageRoot + "/config/examples/i3blocks.conf")
    let block = try #require(snippet.firstRange(of: "\nmarkup=none\n"))
    snippet.replaceSubrange(block, with: "\nmarkup=pango\n")
    let clicks = try #require(snippet.firstRange(of: "\n[pulsebar-ctl]"))
    return String(snippet[..<clicks.lowerBound])
  }

  /// i3blocks under swaybar on headless sway, judged from grim screenshots as Waybar is; its
  /// screenshots are not in the docs (the recipe doc shows Waybar's and polybar's).
  @Test(
    "i3blocks under swaybar: the title scrolls, the lyric's line and the art's colours are drawn",
    .enabled(if: missing == nil, "\(missing ?? "")"))
  func nowPlayingInI3blocks() throws {
    let desktop = try Self.desktop(markup: "pango")
    try desktop.startDaemon()
    let sway = try LongLineSway(
      session: desktop.session, environment: desktop.barEnvironment, socket: desktop.socketPath,
      block: try Self.i3blocksBlock())
    try Self.check(SwaybarI3blocks(sway), desktop, name: nil, padding: 0)
  }
}

/// ``LongLineSway`` as a ``RealBar``.
final class SwaybarI3blocks: RealBar {
  let sway: LongLineSway
  let name = "i3blocks under swaybar (now playing)"

  init(_ sway: LongLineSway) { self.sway = sway }

  func screenshot() throws -> BarScreenshot { try sway.screenshot() }

  func log() -> [String] { sway.problems() }
}

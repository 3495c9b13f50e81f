import Glibc
import PulseBarTestSupport
import Testing

/// The shipped polybar recipe (`config/examples/polybar.ini`) in the real polybar under Xvfb,
/// with DejaVu Sans Mono and with Noto Sans Mono as `monospace`, judged from screenshots.
@Suite("polybar runs the shipped recipe", .serialized)
struct PolybarTests {
  /// Xvfb with polybar on it.
  final class Polybar: RealBar {
    let name: String
    let xvfb: ChildProcess
    let polybar: ChildProcess
    let display: String
    let logPath: String

    /// polybar on the shipped module between two markers, or on `config` (a whole config
    /// whose bar is `[bar/NAME]`, `bar` its NAME).
    init(
      desktop: RealBarDesktop, name: String, config custom: String? = nil, bar: String = "pulsebar"
    ) throws {
      self.name = name
      let directory = desktop.session.directory
      xvfb = try ChildProcess(
        "Xvfb", ["-displayfd", "1", "-screen", "0", "1000x100x24", "-nolisten", "tcp"])
      guard let number = xvfb.readLine(timeout: 20), Int(number) != nil else {
        throw SpawnError(message: "Xvfb did not start: \(xvfb.standardError)")
      }
      display = ":" + number
      // A black bar whose right end holds the shipped module between two marker modules.
      let snippet = try readTextFile(Binary.packageRoot + "/config/examples/polybar.ini")
      let config = directory + "/polybar.ini"
      try desktop.session.write(
        config,
        custom
          ?? """
          [bar/pulsebar]
          monitor = screen
          width = 100%
          height = 30
          background = #000000
          foreground = #ffffff
          font-0 = monospace:size=12;3
          modules-right = left pulsebar right

          [module/left]
          type = custom/text
          content = "  "
          content-background = \(BarScreenshot.leftMarker)

          [module/right]
          type = custom/text
          content = "  "
          content-background = \(BarScreenshot.rightMarker)

          """ + snippet)
      logPath = directory + "/polybar.log"
      polybar = try ChildProcess(
        "sh", ["-c", #"exec polybar -c "$1" "$3" >"$2" 2>&1"#, "sh", config, logPath, bar],
        environment: desktop.barEnvironment.merging(["DISPLAY": display]) { $1 })
    }

    deinit {
      polybar.send(SIGTERM)
      _ = try? polybar.waitForExit(timeout: 10)
      xvfb.send(SIGTERM)
      _ = try? xvfb.waitForExit(timeout: 10)
    }

    func screenshot() throws -> BarScreenshot {
      try BarScreenshot.capture(
        [
          "import", "-display", display, "-window", "root", "-crop", "1000x30+0+0", "-depth", "8",
          "ppm:-",
        ],
        environment: [:])
    }

    func log() -> [String] { BarSession.lines(of: logPath) }

    /// Clicks at (`x`, `y`) with xdotool.
    func click(x: Int, y: Int) throws {
      let tool = try ChildProcess(
        "xdotool", ["mousemove", "\(x)", "\(y)", "click", "1"], environment: ["DISPLAY": display])
      #expect(try tool.waitForExit(timeout: 10) == 0, "xdotool: \(tool.standardError)")
    }
  }

  /// Whether Xvfb and polybar are installed (CI installs both); the reason when not.
  static var missing: String? {
    let absent = ["Xvfb", "polybar", "import", "convert", "xdotool", "mpv"].filter {
      !BarSession.installed($0)
    }
    return absent.isEmpty ? nil : "not installed: \(absent.joined(separator: ", "))"
  }

  /// polybar has no state classes in the recipe: offline is the one line whose ink stays in
  /// its first cells (Ø and figure spaces), a live line's bars spread over the module.
  static func isState(_ seen: RealBarChecks.Seen, _ state: String) -> Bool {
    let ink = seen.shot.inkColumns(in: seen.box, rows: seen.rows)
    guard let last = ink.last else { return false }
    let reach = last - seen.box.lowerBound
    return state == "offline" ? reach < seen.box.count / 8 : reach > seen.box.count / 3
  }

  @Test(
    "module drawn, one width in every state, offline within 1 s, no warnings",
    .enabled(if: missing == nil, "\(missing ?? "")"),
    arguments: ["DejaVu Sans Mono", "Noto Sans Mono"])
  func recipeInPolybar(monospace: String) throws {
    let desktop = try RealBarDesktop(monospace: monospace, daemonConfig: "")
    try desktop.startDaemon()
    let bar = try Polybar(desktop: desktop, name: "polybar (\(monospace))")
    let shots = getenv("PULSEBAR_SCREENSHOTS").map { String(cString: $0) }
    try RealBarChecks.run(
      bar, desktop: desktop, isState: Self.isState,
      save: { state, shot in
        guard let shots, monospace == "DejaVu Sans Mono" else { return }
        try? shot.writePNG(to: "\(shots)/polybar-\(state).png")
      })
    let warnings = bar.log().filter { $0.contains("|warn") || $0.contains("|error") }
    #expect(warnings.isEmpty, "polybar's log: \(warnings.prefix(10)) (\(warnings.count) lines)")
  }

  /// A track title that is a polybar click action, through the shipped recipe: clicking the
  /// module must not run it. The title is the track's tag and mpv's forced media title
  /// (mpv-mpris sends the tag's).
  @Test(
    "a hostile title's polybar action does not run on click",
    .enabled(if: missing == nil, "\(missing ?? "")"))
  func hostileTitleIsNotAnAction() throws {
    let marker = "/tmp/pulsebar-polybar-clicked-\(getpid())"
    unlink(marker)
    defer { unlink(marker) }
    let title = "%{A1:touch \(marker):}CLICKME%{A}"
    let desktop = try RealBarDesktop(
      monospace: "DejaVu Sans Mono", daemonConfig: "[output]\ntitle_width = 60\n", title: title)
    try desktop.startDaemon()
    let bar = try Polybar(desktop: desktop, name: "polybar")
    try desktop.play(title: title)
    #expect(desktop.waitForState("playing"), "the daemon never played")
    // The title is drawn: the module's ink reaches into the title area.
    guard
      let (seen, _) = try RealBarChecks.waitFor(
        bar, timeout: 20,
        {
          let ink = $0.shot.inkColumns(in: $0.box, rows: $0.rows)
          return (ink.last ?? 0) - $0.box.lowerBound > $0.box.count / 4
        })
    else {
      Issue.record(
        "no title drawn in 20 s; polybar's log:\n\(bar.log().suffix(20).joined(separator: "\n"))")
      return
    }
    // Click the title's ink (cells 18 on: glyph, bars, bubbles come first), where polybar
    // would have put the action's region.
    let cell = Double(seen.box.count) / 78
    let titleStart = seen.box.lowerBound + Int(cell * 18)
    let titleInk = seen.shot.inkColumns(in: titleStart..<seen.box.upperBound, rows: seen.rows)
    let x = titleInk.isEmpty ? titleStart + Int(cell * 3) : titleInk[titleInk.count / 2]
    try bar.click(x: x, y: (seen.rows.lowerBound + seen.rows.upperBound) / 2)
    pause(2)
    #expect(access(marker, F_OK) != 0, "clicking the module ran the title's action: \(marker)")
  }
}

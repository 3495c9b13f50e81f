import Glibc
import PulseBarTestSupport
import Testing

/// The shipped Waybar recipe (`config/examples/waybar-config.jsonc`, `waybar-style.css`) in the
/// real Waybar, in headless sway as an unprivileged user, with DejaVu Sans Mono and with Noto
/// Sans Mono as `monospace`, judged from grim screenshots.
@Suite("Waybar runs the shipped recipe", .serialized)
struct WaybarTests {
  /// Headless sway with Waybar on it, both as the session's user.
  final class Waybar: RealBar {
    let name: String
    let session: BarSession
    let sway: ChildProcess
    let waybar: ChildProcess
    let logPath: String
    let display = "wayland-1"

    init(desktop: RealBarDesktop, name: String) throws {
      self.name = name
      session = desktop.session
      let directory = session.directory
      try session.write(
        directory + "/sway.conf", "xwayland disable\noutput HEADLESS-1 resolution 1000x100\n")
      sway = try session.spawn(
        [
          "sh", "-c", #"exec sway -c "$1" >"$2" 2>&1"#, "sh", directory + "/sway.conf",
          directory + "/sway.log",
        ],
        environment: [
          "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
        ])
      let socket = directory + "/" + display
      guard eventually(timeout: 20, { access(socket, F_OK) == 0 }) else {
        throw SpawnError(
          message: "sway did not start: "
            + BarSession.lines(of: directory + "/sway.log").suffix(20).joined(separator: "\n"))
      }
      // The shipped config through waybar's "include", between two marker modules; the
      // shipped CSS after a black bar and the markers' colours. The markers print a line every
      // second, as `pulsebar listen` prints its lines: under load Waybar 0.9.17 sometimes never
      // drew a marker that ran its command once or once a second (full parallel runs: the
      // pulsebar module and the right marker drawn, the left marker never).
      try session.write(
        directory + "/waybar.jsonc",
        """
        {
          "include": ["\(Binary.packageRoot)/config/examples/waybar-config.jsonc"],
          "position": "top", "height": 30,
          "modules-left": [], "modules-center": [],
          "modules-right": ["custom/left", "custom/pulsebar", "custom/right"],
          "custom/left": { "exec": "while :; do echo L; sleep 1; done", "format": "  " },
          "custom/right": { "exec": "while :; do echo R; sleep 1; done", "format": "  " }
        }
        """)
      let css = try readTextFile(Binary.packageRoot + "/config/examples/waybar-style.css")
      try session.write(
        directory + "/waybar.css",
        """
        window#waybar { background: #000000; }
        * { font-size: 16px; }
        #custom-left { background: \(BarScreenshot.leftMarker); }
        #custom-right { background: \(BarScreenshot.rightMarker); }
        """ + "\n" + css)
      logPath = directory + "/waybar.log"
      waybar = try session.spawn(
        [
          "sh", "-c", #"exec waybar -c "$1" -s "$2" >"$3" 2>&1"#, "sh", directory + "/waybar.jsonc",
          directory + "/waybar.css", logPath,
        ],
        // NO_AT_BRIDGE: no accessibility bus in a test session (GTK would warn about it).
        environment: desktop.barEnvironment.merging([
          "WAYLAND_DISPLAY": display, "NO_AT_BRIDGE": "1",
        ]) { $1 })
    }

    deinit {
      waybar.send(SIGTERM)
      _ = try? waybar.waitForExit(timeout: 10)
      kill(-sway.pid, SIGTERM)
      sway.send(SIGTERM)
      _ = try? sway.waitForExit(timeout: 10)
    }

    func screenshot() throws -> BarScreenshot {
      try BarScreenshot.capture(
        session.asUser + ["grim", "-g", "0,0 1000x30", "-t", "ppm", "-"],
        environment: session.environment.merging(["WAYLAND_DISPLAY": display]) { $1 })
    }

    func log() -> [String] { BarSession.lines(of: logPath) }
  }

  /// The shipped CSS's class colours.
  static let colors: [String: BarScreenshot.Color] = [
    "playing": .init(0xa6e3a1), "paused": .init(0xf9e2af), "stopped": .init(0x7f849c),
    "offline": .init(0x585b70),
  ]

  /// Whether sway and waybar are installed (CI installs both); the reason when not.
  static var missing: String? {
    let absent = ["sway", "waybar", "grim", "convert", "mpv"].filter { !BarSession.installed($0) }
    return absent.isEmpty ? nil : "not installed: \(absent.joined(separator: ", "))"
  }

  @Test(
    "module drawn, one width in every state, offline within 1 s, back after a restart",
    .enabled(if: missing == nil, "\(missing ?? "")"),
    arguments: ["DejaVu Sans Mono", "Noto Sans Mono"])
  func recipeInWaybar(monospace: String) throws {
    // A title full of markup in the text (title_width) and the tooltip.
    let desktop = try RealBarDesktop(
      monospace: monospace, daemonConfig: "[output]\ntitle_width = 20\n",
      title: #"<b>bold</b> & <span foreground="red">red</span> "q" \ <i"#)
    try desktop.startDaemon()
    let bar = try Waybar(desktop: desktop, name: "waybar (\(monospace))")
    let shots = getenv("PULSEBAR_SCREENSHOTS").map { String(cString: $0) }
    try RealBarChecks.run(
      bar, desktop: desktop,
      isState: { seen, state in
        seen.shot.shows(Self.colors[state]!, in: seen.box, rows: seen.rows)
      },
      save: { state, shot in
        guard let shots, monospace == "DejaVu Sans Mono" else { return }
        try? shot.writePNG(to: "\(shots)/waybar-\(state).png")
      })
    // Waybar's warnings and errors, and any line about markup or JSON.
    let warnings = bar.log().filter {
      $0.contains("[warning]") || $0.contains("[error]") || $0.contains("[critical]")
        || $0.lowercased().contains("markup") || $0.contains("JSON")
    }
    #expect(warnings.isEmpty, "waybar's log: \(warnings)")
  }

  /// `output.hide_when = stopped`: with the shipped snippet's `hide-empty-text`, the module
  /// takes no space while hidden (the markers touch), and comes back with the music.
  @Test(
    "a hidden line takes the module off the bar; music brings it back",
    .enabled(if: missing == nil, "\(missing ?? "")"))
  func hiddenModuleTakesNoSpace() throws {
    let desktop = try RealBarDesktop(
      monospace: "DejaVu Sans Mono", daemonConfig: "[output]\nhide_when = stopped\nhide_after = 1\n"
    )
    try desktop.startDaemon()
    try desktop.play()
    let bar = try Waybar(desktop: desktop, name: "waybar (hide_when)")
    #expect(desktop.waitForState("playing"), "never playing")
    let playing = try RealBarChecks.waitFor(bar, timeout: 30) { $0.box.count > 20 }
    #expect(playing != nil, RealBarChecks.failure(bar, "the module was never drawn"))
    // The music stops: a second after `stopped` the text is empty and the module gone.
    try desktop.stopMusic()
    let hidden = try RealBarChecks.waitFor(bar, timeout: 20) { $0.box.isEmpty }
    #expect(hidden != nil, RealBarChecks.failure(bar, "the module kept its space"))
    try desktop.play()
    #expect(desktop.waitForState("playing"), "never playing again")
    let shown = try RealBarChecks.waitFor(bar, timeout: 20) { $0.box.count > 20 }
    #expect(shown != nil, RealBarChecks.failure(bar, "the module did not come back"))
  }
}

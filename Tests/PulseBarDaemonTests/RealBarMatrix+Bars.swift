import Glibc
import PulseBarTestSupport
import Testing

/// One pulsebar module of the matrix on a bar: its configuration, between two marker modules
/// of its own colours (the neighbours that must stay drawn).
struct MatrixModule {
  let config: MatrixConfig
  let left: BarScreenshot.Color
  let right: BarScreenshot.Color

  /// The three modules every bar shows, left to right.
  static let all = [
    MatrixModule(config: .plain, left: .init(0xff00ff), right: .init(0x00ffff)),
    MatrixModule(config: .colours, left: .init(0xff0080), right: .init(0x00ff80)),
    MatrixModule(config: .template, left: .init(0x8000ff), right: .init(0x80ff00)),
  ]

  /// The config's markup in a bar that reads `markup` (`pango` or `polybar`).
  func markup(in bar: String) -> String { config == .plain ? "none" : bar }

  /// The bar's command for this module: `listen` on its daemon's socket with its config.
  func listen(_ world: MatrixWorld, format: String, bar: String) -> String {
    let markup = markup(in: bar)
    return "env XDG_CONFIG_HOME=\(world.configHome(config, markup: markup)) pulsebar listen"
      + " --socket \(world.socket(config, markup: markup)) --format \(format) --fps 30"
  }
}

/// A bar of the matrix as the test judges it: a screenshot of its strip and the problems in
/// its log.
struct MatrixView {
  let name: String
  let screenshot: () throws -> BarScreenshot
  let problems: () -> [String]
}

/// Headless sway (as the bars' user) with Waybar at the top and swaybar at the bottom, whose
/// status line is i3blocks: one desktop for both Wayland bars in one font.
final class MatrixSway {
  static let size = (width: 1400, height: 100)
  let session: BarSession
  let sway: ChildProcess
  let waybar: ChildProcess
  let swaybar: ChildProcess

  init(world: MatrixWorld, monospace: String) throws {
    session = try BarSession(monospace: monospace)
    let directory = session.directory
    try session.write(directory + "/i3blocks.conf", Self.i3blocksConfig(world))
    try session.write(
      directory + "/sway.conf",
      """
      xwayland disable
      output HEADLESS-1 resolution \(Self.size.width)x\(Self.size.height)
      bar {
        id matrix
        swaybar_command true
        position bottom
        tray_output none
        font pango:pulsebar, monospace 12
        status_command i3blocks -c \(directory)/i3blocks.conf
        colors {
          background #000000
          statusline #ffffff
        }
      }

      """)
    sway = try session.spawn(
      [
        "sh", "-c", #"exec sway -c "$1" >"$2" 2>&1"#, "sh", directory + "/sway.conf",
        directory + "/sway.log",
      ],
      environment: world.environment.merging([
        "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
      ]) { $1 })
    guard eventually(timeout: 20, { access(directory + "/wayland-1", F_OK) == 0 }) else {
      throw SpawnError(
        message: "sway did not start: \(BarSession.lines(of: directory + "/sway.log"))")
    }
    // swaybar as the test's child: launched by this sway, i3blocks' status line never showed
    // ("error reading from status command"), the same binaries run by hand did.
    let ipc = try #require(
      try ChildProcess("sh", ["-c", "ls \(directory)/sway-ipc.*.sock"]).readLine(timeout: 10))
    swaybar = try session.spawn(
      ["sh", "-c", #"exec swaybar -b matrix >"$1" 2>&1"#, "sh", directory + "/swaybar.log"],
      environment: world.environment.merging(["WAYLAND_DISPLAY": "wayland-1", "SWAYSOCK": ipc]) {
        $1
      })
    try session.write(directory + "/waybar.jsonc", Self.waybarConfig(world))
    try session.write(directory + "/waybar.css", Self.waybarStyle)
    waybar = try session.spawn(
      [
        "sh", "-c", #"exec waybar -c "$1" -s "$2" >"$3" 2>&1"#, "sh", directory + "/waybar.jsonc",
        directory + "/waybar.css", directory + "/waybar.log",
      ],
      environment: world.environment.merging(["WAYLAND_DISPLAY": "wayland-1", "NO_AT_BRIDGE": "1"])
      {
        $1
      })
  }

  deinit {
    waybar.send(SIGTERM)
    _ = try? waybar.waitForExit(timeout: 10)
    swaybar.send(SIGTERM)
    _ = try? swaybar.waitForExit(timeout: 10)
    sway.send(SIGTERM)
    _ = try? sway.waitForExit(timeout: 10)
  }

  /// Waybar's markers print a line every second from one long-running command (WaybarTests
  /// says why); each pulsebar module is the shipped snippet's, on its own daemon.
  static func waybarConfig(_ world: MatrixWorld) -> String {
    var modules: [String] = []
    var names: [String] = []
    for (index, module) in MatrixModule.all.enumerated() {
      names += [#""custom/l\#(index)""#, #""custom/p\#(index)""#, #""custom/r\#(index)""#]
      for side in ["l", "r"] {
        modules.append(
          #""custom/\#(side)\#(index)": {"exec": "while :; do echo M; sleep 1; done", "format": "  "}"#
        )
      }
      modules.append(
        #""custom/p\#(index)": {"exec": "\#(module.listen(world, format: "waybar", bar: "pango"))", "#
          + #""return-type": "json", "format": "{}", "hide-empty-text": true, "tooltip": false, "#
          + #""restart-interval": 2, "align": 0}"#)
    }
    return """
      {
        "position": "top", "height": 30, "modules-left": [], "modules-center": [],
        "modules-right": [\(names.joined(separator: ", "))],
        \(modules.joined(separator: ",\n  "))
      }
      """
  }

  static var waybarStyle: String {
    var css = "window#waybar { background: #000000; color: #ffffff; }\n"
    css +=
      "* { font-family: pulsebar, monospace; font-size: 16px; padding: 0; margin: 0; border: none; }\n"
    for (index, module) in MatrixModule.all.enumerated() {
      css += "#custom-l\(index) { background: \(module.left); }\n"
      css += "#custom-r\(index) { background: \(module.right); }\n"
      // The shipped style's min-width: the module's cells at 10 px a cell (16 px fonts).
      css += "#custom-p\(index) { min-width: \(module.config.cells * 10)px; }\n"
    }
    return css
  }

  /// The shipped i3blocks snippet per module, between solid marker blocks; no separators, so
  /// the markers touch while the module is hidden.
  static func i3blocksConfig(_ world: MatrixWorld) -> String {
    var config = ""
    for (index, module) in MatrixModule.all.enumerated() {
      for (side, color) in [("l", module.left), ("r", module.right)] {
        // i3blocks 1.4 has no `background`: a Pango span paints the marker.
        let marker =
          "[\(side)\(index)]\nfull_text=<span background=\"\(color)\" foreground=\"\(color)\">MM</span>\n"
          + "markup=pango\nseparator=false\nseparator_block_width=0\n\n"
        if side == "r" {
          config += """
            [p\(index)]
            command=\(module.listen(world, format: "text", bar: "pango"))
            interval=persist
            format=raw
            markup=\(module.markup(in: "pango"))
            min_width=\(String(repeating: "x", count: module.config.cells))
            align=left
            separator=false
            separator_block_width=0


            """
        }
        config += marker
      }
    }
    return config
  }

  /// A screenshot of Waybar's strip (`top`) or swaybar's.
  func screenshot(top: Bool) throws -> BarScreenshot {
    let y = top ? 0 : Self.size.height - 40
    return try BarScreenshot.capture(
      session.asUser + ["grim", "-g", "0,\(y) \(Self.size.width)x40", "-t", "ppm", "-"],
      environment: session.environment.merging(["WAYLAND_DISPLAY": "wayland-1"]) { $1 })
  }

  /// Waybar's warnings and errors, and any line about markup or JSON.
  func waybarProblems() -> [String] {
    BarSession.lines(of: session.directory + "/waybar.log").filter {
      $0.contains("[warning]") || $0.contains("[error]") || $0.contains("[critical]")
        || $0.lowercased().contains("markup") || $0.contains("JSON")
    }
  }

  /// What swaybar and i3blocks said (errors only, without debug).
  func swaybarProblems() -> [String] {
    BarSession.lines(of: session.directory + "/swaybar.log").filter {
      !$0.contains("pulsebar listen")
    }
  }
}

/// The font list the shipped polybar snippet gives (its `;   font-N = …` lines).
enum PolybarFonts {
  static func shipped() throws -> [String] {
    let snippet = try readTextFile(Binary.packageRoot + "/config/examples/polybar.ini")
    let fonts = snippet.split(separator: "\n").filter { $0.hasPrefix(";   font-") }
      .map { String($0.dropFirst(4)) }
    try #require(fonts.count > 3, "the polybar snippet lists no fonts")
    return fonts
  }

  /// A black 30 px bar `name` with the shipped fonts and `modules` (its `modules-…` line).
  static func bar(_ name: String, modules: String) throws -> String {
    """
    [bar/\(name)]
    monitor = screen
    width = 100%
    height = 30
    background = #000000
    foreground = #ffffff
    \(try shipped().joined(separator: "\n"))
    \(modules)

    """
  }
}

/// Xvfb with polybar on it: the three modules as the shipped snippet, in one font. polybar
/// draws only from its own fonts (it drops a character none has, with a warning): this bar
/// lists the snippet's fonts for every script (the CJK one at 1.25 times the size, so a wide
/// character is two cells).
final class MatrixPolybar {
  let xvfb: ChildProcess
  let polybar: ChildProcess
  let display: String
  let logPath: String
  let session: BarSession

  init(world: MatrixWorld, monospace: String) throws {
    session = try BarSession(monospace: monospace)
    xvfb = try ChildProcess(
      "Xvfb", ["-displayfd", "1", "-screen", "0", "1400x100x24", "-nolisten", "tcp"])
    guard let number = xvfb.readLine(timeout: 20), Int(number) != nil else {
      throw SpawnError(message: "Xvfb did not start: \(xvfb.standardError)")
    }
    display = ":" + number
    var config = try PolybarFonts.bar(
      "matrix",
      modules: "modules-right = " + (0..<3).map { "l\($0) p\($0) r\($0)" }.joined(separator: " "))
    for (index, module) in MatrixModule.all.enumerated() {
      for (side, color) in [("l", module.left), ("r", module.right)] {
        config += "\n[module/\(side)\(index)]\ntype = custom/text\ncontent = \"  \"\n"
        config += "content-background = \(color)\n"
      }
      config += """

        [module/p\(index)]
        type = custom/script
        exec = \(module.listen(world, format: "text", bar: "polybar"))
        tail = true
        format = <label>
        label = %output%

        """
    }
    let path = session.directory + "/polybar.ini"
    try session.write(path, config)
    logPath = session.directory + "/polybar.log"
    polybar = try ChildProcess(
      "sh", ["-c", #"exec polybar -c "$1" matrix >"$2" 2>&1"#, "sh", path, logPath],
      environment: session.environment.merging(world.environment) { $1 }.merging([
        "DISPLAY": display
      ]) { $1 })
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
        "import", "-display", display, "-window", "root", "-crop", "1400x30+0+0", "-depth", "8",
        "ppm:-",
      ], environment: [:])
  }

  func problems() -> [String] {
    BarSession.lines(of: logPath).filter { $0.contains("|warn") || $0.contains("|error") }
  }
}

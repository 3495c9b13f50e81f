import Glibc
import PulseBarTestSupport
import Testing

/// i3blocks 1.4 cuts a line at 1,024 bytes, inside a character or a Pango tag, and swaybar then
/// rejects the text and blanks the whole bar. A now-playing template with a 1,000-byte title in
/// two fields and a Pango gradient makes such a line; in the real i3blocks under swaybar (on
/// headless sway) the module and its neighbour blocks stay drawn, and swaybar logs nothing.
@Suite("i3blocks keeps drawing an over-long line", .serialized)
struct I3blocksLongLineTests {
  static var missing: String? {
    let tools = ["sway", "swaybar", "i3blocks", "grim", "sox"]
    let absent = tools.filter { !BarSession.installed($0) }
    return absent.isEmpty ? nil : "not installed: \(absent.joined(separator: ", "))"
  }

  /// The marker blocks' colours, left and right of the module.
  static let left = BarScreenshot.Color(0xff00ff)
  static let right = BarScreenshot.Color(0x00ffff)

  /// A title of at most 1,000 bytes (the bus boundary's cap) whose Pango escaping doubles it:
  /// wide characters, `&`, `<` and `>`.
  static var longTitle: String {
    var title = ""
    while title.utf8.count < 1000 { title += "東京 <&> " }
    while title.utf8.count > 1000 { title.removeLast() }
    return title
  }

  /// The module's width between the marker blocks, or `nil` when they are not drawn.
  static func moduleWidth(_ shot: BarScreenshot) -> Int? {
    guard let rows = shot.rows(of: left) else { return nil }
    return shot.moduleBox(row: (rows.lowerBound + rows.upperBound) / 2, between: left, and: right)?
      .count
  }

  /// The daemon as the session's user, its config the template with the title in two fields,
  /// in Pango with a gradient; returns it and its socket once the socket is there.
  static func startDaemon(_ session: BarSession, environment: [String: String]) throws -> (
    ChildProcess, String
  ) {
    let directory = session.directory
    mkdir(directory + "/config", 0o755)
    mkdir(directory + "/config/pulsebar", 0o755)
    try session.write(
      directory + "/config/pulsebar/config",
      """
      [output]
      markup = pango
      text = {glyph} {bars} {title} – {title}
      [colors]
      bars = #89b4fa, #cba6f7, #f38ba8

      """)
    if getuid() == 0 {
      _ = try ChildProcess("chown", ["-R", BarSession.userName, directory + "/config"])
        .waitForExit(timeout: 10)
    }
    let socket = directory + "/pulsebar.sock"
    let daemon = try session.spawn(
      [Binary.path, "run", "--input", "pulse", "--socket", socket, "--no-stdout"],
      environment: environment)
    try #require(eventually(timeout: 20) { access(socket, F_OK) == 0 }, "no daemon socket")
    return (daemon, socket)
  }

  @Test(
    "a 1,000-byte title in two fields with markup = pango: the bar is not blank",
    .enabled(if: missing == nil, "\(missing ?? "")"))
  func overLongLineKeepsTheBarDrawn() throws {
    let server = try PrivatePulseServer()
    defer { server.stop() }
    let bus = try PrivateSessionBus(directory: server.directory)
    defer { bus.stop() }
    let session = try BarSession(monospace: "DejaVu Sans Mono")
    session.share(server.directory)
    let environment = [
      "PATH": Binary.packageRoot + "/.build/debug:/usr/local/bin:/usr/bin:/bin",
      "PULSE_SERVER": "unix:" + server.socketPath, "DBUS_SESSION_BUS_ADDRESS": bus.address,
    ]
    let (daemon, socket) = try Self.startDaemon(session, environment: environment)
    defer { daemon.send(SIGKILL) }
    let track = try makeTestAudio(in: server.directory, seconds: 60)
    let player = try ChildProcess(
      "/usr/bin/python3",
      [
        HostilePlayerTests.script, "--name", "long", "--play", track, "--title", Self.longTitle,
      ], environment: server.environment.merging(bus.environment) { $1 })
    defer { player.send(SIGKILL) }
    try #require(player.waitForLine(timeout: 15) { $0 == "ready" } != nil, "no fake player")

    let bar = try LongLineSway(session: session, environment: environment, socket: socket)
    // The long line drawn between its neighbours (not the stopped line before the title)…
    let first = ChildProcess.now()
    while ChildProcess.now() - first < 20, (try Self.moduleWidth(bar.screenshot()) ?? 0) <= 1000 {
      usleep(200_000)
    }
    // …then in every screenshot for 3 s of frames: never a blank bar.
    var widths: [Int?] = []
    for _ in 0..<10 {
      widths.append(try Self.moduleWidth(bar.screenshot()))
      usleep(300_000)
    }
    print("i3blocks long line: module widths \(widths.map { $0.map(String.init) ?? "blank" })")
    #expect(
      widths.allSatisfy { ($0 ?? 0) > 1000 },
      "the bar was blank, or the long module not drawn between its neighbours: \(widths)")
    let problems = bar.problems()
    #expect(problems.isEmpty, "swaybar's log: \(problems.prefix(5))")
  }
}

/// Headless sway with swaybar, whose status line is i3blocks running the shipped snippet's
/// command between two marker blocks; wide enough for a 1,000-byte line.
final class LongLineSway {
  let session: BarSession
  let sway: ChildProcess
  let swaybar: ChildProcess
  static let size = (width: 6000, height: 60)

  /// `block`: the module's i3blocks section (default: the shipped command on `socket`, with
  /// Pango markup); it is drawn between the marker blocks with no separator.
  init(session: BarSession, environment: [String: String], socket: String, block: String? = nil)
    throws
  {
    self.session = session
    let directory = session.directory
    var blocks = ""
    for (name, color) in [("l", I3blocksLongLineTests.left), ("r", I3blocksLongLineTests.right)] {
      blocks +=
        "[\(name)]\nfull_text=<span background=\"\(color)\" foreground=\"\(color)\">MM</span>\n"
      blocks += "markup=pango\nseparator=false\nseparator_block_width=0\n\n"
      guard name == "l" else { continue }
      if let block {
        blocks += block + "\nseparator=false\nseparator_block_width=0\n\n"
        continue
      }
      blocks += """
        [pulsebar]
        command=pulsebar listen --socket \(socket) --format text --fps 30
        interval=persist
        format=raw
        markup=pango
        separator=false
        separator_block_width=0


        """
    }
    try session.write(directory + "/i3blocks.conf", blocks)
    try session.write(
      directory + "/sway.conf",
      """
      xwayland disable
      output HEADLESS-1 resolution \(Self.size.width)x\(Self.size.height)
      bar {
        id long
        swaybar_command true
        position top
        tray_output none
        font pango:monospace 12
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
      environment: environment.merging([
        "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
      ]) { $1 })
    guard eventually(timeout: 20, { access(directory + "/wayland-1", F_OK) == 0 }) else {
      throw SpawnError(
        message: "sway did not start: \(BarSession.lines(of: directory + "/sway.log"))")
    }
    // swaybar as the test's child, as in the matrix (launched by sway, i3blocks never showed).
    let ipc = try #require(
      try ChildProcess("sh", ["-c", "ls \(directory)/sway-ipc.*.sock"]).readLine(timeout: 10))
    swaybar = try session.spawn(
      ["sh", "-c", #"exec swaybar -b long >"$1" 2>&1"#, "sh", directory + "/swaybar.log"],
      environment: environment.merging(["WAYLAND_DISPLAY": "wayland-1", "SWAYSOCK": ipc]) { $1 })
  }

  deinit {
    swaybar.send(SIGTERM)
    _ = try? swaybar.waitForExit(timeout: 10)
    sway.send(SIGTERM)
    _ = try? sway.waitForExit(timeout: 10)
  }

  /// A screenshot of swaybar's strip.
  func screenshot() throws -> BarScreenshot {
    try BarScreenshot.capture(
      session.asUser + ["grim", "-g", "0,0 \(Self.size.width)x30", "-t", "ppm", "-"],
      environment: session.environment.merging(["WAYLAND_DISPLAY": "wayland-1"]) { $1 })
  }

  /// What swaybar and i3blocks said (errors only, without debug).
  func problems() -> [String] {
    BarSession.lines(of: session.directory + "/swaybar.log").filter {
      !$0.contains("pulsebar listen")
    }
  }
}

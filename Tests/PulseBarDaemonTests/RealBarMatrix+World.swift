import Glibc
import PulseBarCore
import PulseBarTestSupport
import Testing

/// The configurations users write, as the matrix runs them: one daemon per configuration and
/// markup (the markup is the daemon's, so colours and the template run once for Pango and
/// once for polybar), each with its own socket and config file, which its bars' `listen`s
/// read too (as a user has one file).
enum MatrixConfig: String, CaseIterable {
  /// The default line, no markup.
  case plain
  /// `[colors]` with the bar's markup: Pango (Waybar, i3blocks) or polybar's.
  case colours
  /// A now-playing template with artist, title, position and a bar gradient.
  case template

  /// The template every now-playing cell uses.
  /// Every field has a width (`Artist`, the fake player's, is 6 cells): its width is known
  /// before the daemon answers.
  static let templateText = "{glyph} {bars} {artist:6} – {title:24} {position}/{length}"

  /// The daemon config for this configuration in `markup` (`none`, `pango`, `polybar`). Every
  /// configuration hides when stopped, after 6 s: time to see the stopped line first.
  func daemonConfig(markup: String) -> String {
    let hide = "hide_when = stopped\nhide_after = 6\n"
    switch self {
    case .plain: return "[output]\n" + hide
    case .colours:
      return """
        [output]
        markup = \(markup)
        \(hide)
        [colors]
        bars = #89b4fa
        playing = #a6e3a1
        paused = #f9e2af
        stopped = #7f849c
        bubbles = #cdd6f4

        """
    case .template:
      return """
        [output]
        markup = \(markup)
        text = \(Self.templateText)
        \(hide)
        [colors]
        bars = #89b4fa, #cba6f7, #f38ba8

        """
    }
  }

  /// The cells of this configuration's line: its known width (the default line's 17, the
  /// template's 54).
  var cells: Int {
    self == .template ? 54 : 17
  }

  /// The markups this configuration runs in.
  var markups: [String] { self == .plain ? ["none"] : ["pango", "polybar"] }
}

/// What every bar of the matrix shares: a private PulseAudio server and session bus, the fake
/// player (its stream from a child, as a real player's), and one daemon per configuration and
/// markup, run as the bars' user; a json `listen` on the plain daemon tells the test its state.
final class MatrixWorld {
  let server: PrivatePulseServer
  let bus: PrivateSessionBus
  /// The session whose directory holds the daemons' sockets and configs (the bars' user's).
  let home: BarSession
  let track: String
  private(set) var daemons: [String: ChildProcess] = [:]
  private var player: ChildProcess?
  private var observer: ChildProcess?

  init() throws {
    try #require(access(Binary.path, X_OK) == 0, "build pulsebar first: \(Binary.path)")
    server = try PrivatePulseServer()
    bus = try PrivateSessionBus(directory: server.directory)
    home = try BarSession(monospace: "DejaVu Sans Mono")
    home.share(server.directory)
    // Four minutes of a tone whose level rises and falls twice a second: the bars move.
    track = server.directory + "/matrix.wav"
    let sox = try ChildProcess(
      "sox",
      [
        "-n", "-r", "22050", "-c", "1", "-b", "16", track, "synth", "240", "sine", "440", "vol",
        "0.5", "tremolo", "2", "90",
      ])
    try #require(try sox.waitForExit(timeout: 60) == 0, "sox: \(sox.standardError)")
    chmod(track, 0o644)
    for config in MatrixConfig.allCases {
      for markup in config.markups {
        let directory = home.directory + "/\(config)-\(markup)"
        mkdir(directory, 0o755)
        mkdir(directory + "/pulsebar", 0o755)
        try home.write(directory + "/pulsebar/config", config.daemonConfig(markup: markup))
        if getuid() == 0 {
          _ = try ChildProcess("chown", ["-R", BarSession.userName, directory])
            .waitForExit(timeout: 10)
        }
      }
    }
  }

  deinit {
    player?.send(SIGKILL)
    observer?.send(SIGKILL)
    for daemon in daemons.values { daemon.send(SIGKILL) }
    bus.stop()
    server.stop()
  }

  /// The `XDG_CONFIG_HOME` of `config` in `markup`: the daemon's and its `listen`s' config.
  func configHome(_ config: MatrixConfig, markup: String) -> String {
    home.directory + "/\(config)-\(markup)"
  }

  /// The socket of `config`'s daemon in `markup`.
  func socket(_ config: MatrixConfig, markup: String) -> String {
    configHome(config, markup: markup) + "/pulsebar.sock"
  }

  /// What every bar process runs with: `pulsebar` on PATH, the audio server and the bus.
  var environment: [String: String] {
    [
      "PATH": Binary.packageRoot + "/.build/debug:/usr/local/bin:/usr/bin:/bin",
      "PULSE_SERVER": "unix:" + server.socketPath, "DBUS_SESSION_BUS_ADDRESS": bus.address,
    ]
  }

  /// Starts every daemon and waits for its socket; the observer follows the plain one.
  func startDaemons() throws {
    for config in MatrixConfig.allCases {
      for markup in config.markups {
        let socket = socket(config, markup: markup)
        unlink(socket)
        daemons["\(config)-\(markup)"] = try home.spawn(
          [Binary.path, "run", "--input", "pulse", "--socket", socket, "--no-stdout"],
          environment: environment.merging([
            "XDG_CONFIG_HOME": configHome(config, markup: markup)
          ]) { $1 })
      }
    }
    for config in MatrixConfig.allCases {
      for markup in config.markups {
        let socket = socket(config, markup: markup)
        let ready = eventually(timeout: 20) { access(socket, F_OK) == 0 }
        let daemon = daemons["\(config)-\(markup)"]
        try #require(ready, "no socket from \(config)-\(markup): \(daemon?.standardError ?? "")")
      }
    }
    observer?.send(SIGKILL)
    observer = try ChildProcess(
      Binary.path,
      ["listen", "--format", "json", "--fps", "10", "--socket", socket(.plain, markup: "none")],
      environment: ["XDG_CONFIG_HOME": server.directory])
  }

  /// SIGKILLs every daemon; returns when they are gone.
  func killDaemons() throws {
    for daemon in daemons.values { daemon.send(SIGKILL) }
    for daemon in daemons.values { _ = try daemon.waitForExit(timeout: 10) }
    daemons = [:]
  }

  /// SIGHUPs every daemon (a reload of its config file).
  func reloadDaemons() {
    for daemon in daemons.values { daemon.send(SIGHUP) }
  }

  /// Appends `text` to every daemon's config file (`nil`: back to the configuration's own).
  func appendToConfigs(_ text: String?) throws {
    for config in MatrixConfig.allCases {
      for markup in config.markups {
        let path = configHome(config, markup: markup) + "/pulsebar/config"
        try home.write(path, config.daemonConfig(markup: markup) + (text ?? ""))
      }
    }
  }

  /// Starts every daemon on its (broken) config: each must refuse with one error line and
  /// exit 2, as under its unit; the error lines.
  func daemonsRefuse() throws -> [String] {
    var errors: [String] = []
    for config in MatrixConfig.allCases {
      for markup in config.markups {
        let daemon = try home.spawn(
          [Binary.path, "run", "--input", "pulse", "--socket", socket(config, markup: markup)],
          environment: environment.merging([
            "XDG_CONFIG_HOME": configHome(config, markup: markup)
          ]) { $1 })
        #expect(try daemon.waitForExit(timeout: 10) == 2, "\(config)-\(markup) started")
        errors.append(daemon.standardError)
      }
    }
    return errors
  }

  /// Starts the fake player, playing `title` by "Artist" at 0:30 of 4:00, its stream from a
  /// paplay child; it obeys ``player(_:)``.
  func startPlayer(title: String) throws {
    let player = try ChildProcess(
      "/usr/bin/python3",
      [
        HostilePlayerTests.script, "--name", "matrix", "--commands", "--play", track, "--artist",
        "Artist", "--title", title, "--position", "30000000", "--length", "240000000",
      ], environment: server.environment.merging(bus.environment) { $1 }, stdin: true)
    let ready = player.waitForLine(timeout: 15) { $0 == "ready" }
    try #require(ready != nil, "the fake player did not start: \(player.standardError)")
    self.player = player
  }

  /// Tells the player `command` (`status Paused`, `title …`); returns when it has obeyed.
  func player(_ command: String) {
    player?.writeToStdin(command + "\n")
    let done = player?.waitForLine(timeout: 10) { $0.hasPrefix("done ") }
    #expect(done != nil, "the fake player did not obey \(command)")
  }

  /// Waits until the plain daemon's state is `state` (and, when given, its title `title`, as
  /// json carries it: composed, NFC; an empty title is none).
  func waitForState(_ state: String, title: String? = nil, timeout: Double = 20) -> Bool {
    guard let observer else { return false }
    let expected = title.map { UntrustedText.capped($0) }
    return observer.waitForLine(timeout: timeout) {
      let frame = JSONValue.parse($0)
      return frame?["state"]?.string == state
        && (expected == nil || (frame?["title"]?.string ?? "") == expected)
    } != nil
  }
}

import Glibc
import PulseBarTestSupport
import Testing

/// A real bar's desktop: a private PulseAudio server and session bus (run as this process),
/// a bar session (run as the bar's user, see ``BarSession``), the daemon as the session's
/// user service would run it, mpv with MPRIS as the music, and a json `listen` that tells the
/// test which state the daemon is in.
final class RealBarDesktop {
  let server: PrivatePulseServer
  let bus: PrivateSessionBus
  let session: BarSession
  let track: String
  private(set) var daemon: ChildProcess?
  private var player: ChildProcess?
  private var observer: ChildProcess?

  /// `daemonConfig` is the session user's `~/.config/pulsebar/config` (the daemon's and the
  /// bar's `listen`'s).
  init(monospace: String, daemonConfig: String, title: String = "A Song") throws {
    try #require(access(Binary.path, X_OK) == 0, "build pulsebar first: \(Binary.path)")
    server = try PrivatePulseServer()
    bus = try PrivateSessionBus(directory: server.directory)
    session = try BarSession(monospace: monospace)
    session.share(server.directory)
    // A tone whose level rises and falls twice a second: the bars move all the time.
    track = try MPRISFixtures.taggedTrack(
      in: server.directory, "song", title: title, hertz: 440, effects: ["tremolo", "2", "90"])
    chmod(track, 0o644)
    mkdir(session.directory + "/config", 0o755)
    mkdir(session.directory + "/config/pulsebar", 0o755)
    try session.write(session.directory + "/config/pulsebar/config", daemonConfig)
    if getuid() == 0 {
      _ = try ChildProcess("chown", ["-R", BarSession.userName, session.directory + "/config"])
        .waitForExit(timeout: 10)
    }
  }

  deinit {
    player?.send(SIGKILL)
    observer?.send(SIGKILL)
    daemon?.send(SIGKILL)
    bus.stop()
    server.stop()
  }

  /// What a bar's `pulsebar listen` runs with: the session, `pulsebar` on PATH.
  var barEnvironment: [String: String] {
    session.environment.merging([
      "PATH": Binary.packageRoot + "/.build/debug:/usr/local/bin:/usr/bin:/bin",
      "PULSE_SERVER": "unix:" + server.socketPath, "DBUS_SESSION_BUS_ADDRESS": bus.address,
    ]) { $1 }
  }

  var socketPath: String { session.directory + "/pulsebar.sock" }

  /// Starts the daemon as the session's user (`pulsebar run --input pulse --socket`) and waits
  /// for its socket; a json `listen` (this process) follows its state.
  func startDaemon() throws {
    unlink(socketPath)
    daemon = try session.spawn(
      [Binary.path, "run", "--input", "pulse", "--socket", "--no-stdout"],
      environment: barEnvironment)
    let ready = eventually(timeout: 15) { access(self.socketPath, F_OK) == 0 }
    try #require(ready, "no daemon socket: \(daemon?.standardError ?? "")")
    observer?.send(SIGKILL)
    observer = try ChildProcess(
      Binary.path, ["listen", "--format", "json", "--fps", "10", "--socket", socketPath],
      environment: ["XDG_CONFIG_HOME": server.directory])
  }

  /// SIGKILLs the daemon; returns when it is gone.
  func killDaemon() throws {
    daemon?.send(SIGKILL)
    _ = try daemon?.waitForExit(timeout: 10)
    daemon = nil
  }

  /// Starts mpv on the tagged track (`title` forced when given) with MPRIS.
  func play(title: String? = nil) throws {
    var arguments = [
      "--no-config", "--no-video", "--ao=pulse", "--no-terminal", "--loop-file=inf",
    ]
    if let plugin = MPRISFixtures.mprisPlugin { arguments.append("--script=" + plugin) }
    if let title { arguments.append("--force-media-title=" + title) }
    player = try ChildProcess(
      "mpv", arguments + [track], environment: server.environment.merging(bus.environment) { $1 })
  }

  /// Stops the music (mpv quits: no stream, no player).
  func stopMusic() throws {
    player?.send(SIGTERM)
    _ = try player?.waitForExit(timeout: 10)
    player = nil
  }

  /// `pulsebar ctl ACTION` on the session bus.
  func control(_ action: String) throws {
    let result = try Binary.run(["ctl", action], environment: bus.environment, timeout: 15)
    #expect(result.status == 0, "ctl \(action): \(result.error)")
  }

  /// The daemon's next json frame (from the json observer) that satisfies `predicate`.
  func waitForFrame(timeout: Double = 20, _ predicate: (JSONValue) -> Bool) -> JSONValue? {
    observer?.waitForLine(timeout: timeout) { JSONValue.parse($0).map(predicate) ?? false }
      .flatMap(JSONValue.parse)
  }

  /// Waits until the daemon's state is `state` (from the json observer).
  func waitForState(_ state: String, timeout: Double = 20) -> Bool {
    guard let observer else { return false }
    return observer.waitForLine(timeout: timeout) {
      JSONValue.parse($0)?["state"]?.string == state
    } != nil
  }
}

/// A bar the real-bar tests drive: how to screenshot it and read its log.
protocol RealBar: AnyObject {
  /// The bar's name in messages.
  var name: String { get }
  /// A screenshot of the bar's strip.
  func screenshot() throws -> BarScreenshot
  /// The bar's log lines so far.
  func log() -> [String]
}

/// The checks both real bars get, from screenshots: the module is drawn while playing; its
/// width stays the same over 3 s of frames and across playing, paused, stopped and offline;
/// offline shows within 1 s of SIGKILL; playing returns after a restart.
enum RealBarChecks {
  /// One state's screenshot, as the tests judge it.
  struct Seen {
    var box: Range<Int>
    var rows: ClosedRange<Int>
    var shot: BarScreenshot
  }

  /// The module's box and rows in `shot`, or `nil` when the markers are not drawn.
  static func module(in shot: BarScreenshot) -> Seen? {
    guard let rows = shot.markerRows(),
      let box = shot.moduleBox(row: (rows.lowerBound + rows.upperBound) / 2)
    else { return nil }
    return Seen(box: box, rows: rows, shot: shot)
  }

  /// Screenshots until `predicate` holds for one (with the module drawn), within `timeout`.
  static func waitFor(
    _ bar: RealBar, timeout: Double, _ predicate: (Seen) -> Bool
  ) throws -> (Seen, Double)? {
    let start = ChildProcess.now()
    while ChildProcess.now() - start < timeout {
      // When the screenshot is done: an upper bound on when what it shows was drawn.
      let shot = try bar.screenshot()
      if let seen = module(in: shot), predicate(seen) {
        return (seen, ChildProcess.now() - start)
      }
      usleep(50_000)
    }
    return nil
  }

  /// What a fresh screenshot of `bar` shows, for a failure's message: the module's box and
  /// its most common colours, or that the markers are not drawn; the screenshot is kept as a
  /// PNG under /tmp, named in the message.
  static func describe(_ bar: RealBar) -> String {
    guard let shot = try? bar.screenshot() else { return "no screenshot" }
    let path = "/tmp/pulsebar-bar-failure-\(getpid())-\(Int(ChildProcess.now() * 1000)).png"
    let saved = (try? shot.writePNG(to: path)) != nil ? " (\(path))" : ""
    guard let seen = module(in: shot) else {
      let colors = shot.commonColors(in: 0..<shot.width, rows: 0...(shot.height - 1))
      return "markers not drawn, colours \(colors)\(saved)"
    }
    return
      "module at \(seen.box), colours \(shot.commonColors(in: seen.box, rows: seen.rows))\(saved)"
  }

  /// A failure's message: `what` went wrong, what the bar shows now, the end of its log.
  static func failure(_ bar: RealBar, _ what: String) -> Comment {
    Comment(
      rawValue: "\(bar.name): \(what); the bar now: \(describe(bar)); its log:\n"
        + bar.log().suffix(30).joined(separator: "\n"))
  }

  /// The whole scenario. `isState(seen, state)` says whether a screenshot shows `state`
  /// (`playing`, `paused`, `stopped`, `offline`); `save` gets the playing, paused and offline
  /// screenshots (for `make screenshots`). Returns the module widths seen per state.
  @discardableResult
  static func run(
    _ bar: RealBar, desktop: RealBarDesktop,
    isState: (Seen, String) -> Bool, save: (String, BarScreenshot) -> Void = { _, _ in }
  ) throws -> [String: Set<Int>] {
    var widths: [String: Set<Int>] = [:]
    func failure(_ what: String) -> Comment { Self.failure(bar, what) }
    // Playing: drawn, then 3 s of frames at one width.
    try desktop.play()
    #expect(desktop.waitForState("playing"), failure("the daemon never played"))
    guard let (first, _) = try waitFor(bar, timeout: 45, { isState($0, "playing") }) else {
      Issue.record(failure("no playing module drawn in 45 s"))
      return widths
    }
    save("playing", first.shot)
    #expect(!first.shot.inkColumns(in: first.box, rows: first.rows).isEmpty, failure("no ink"))
    var images = Set<[Int]>()
    let start = ChildProcess.now()
    while ChildProcess.now() - start < 3 {
      guard let seen = module(in: try bar.screenshot()) else { continue }
      widths["playing", default: []].insert(seen.box.count)
      images.insert(seen.shot.inkProfile(in: seen.box, rows: seen.rows))
      usleep(200_000)
    }
    #expect(images.count >= 2, failure("the module did not change in 3 s of music"))
    // Paused, stopped.
    try desktop.control("pause")
    #expect(desktop.waitForState("paused"), failure("the daemon never paused"))
    if let (paused, _) = try waitFor(bar, timeout: 30, { isState($0, "paused") }) {
      widths["paused", default: []].insert(paused.box.count)
      save("paused", paused.shot)
    } else {
      Issue.record(failure("no paused module in 30 s"))
    }
    try desktop.stopMusic()
    #expect(desktop.waitForState("stopped"), failure("the daemon never stopped"))
    if let (stopped, _) = try waitFor(bar, timeout: 30, { isState($0, "stopped") }) {
      widths["stopped", default: []].insert(stopped.box.count)
    } else {
      Issue.record(failure("no stopped module in 30 s"))
    }
    // Offline within 1 s of SIGKILL.
    try desktop.killDaemon()
    if let (offline, after) = try waitFor(bar, timeout: 10, { isState($0, "offline") }) {
      widths["offline", default: []].insert(offline.box.count)
      save("offline", offline.shot)
      print("\(bar.name): offline drawn \(after) s after SIGKILL")
      #expect(after < 1, failure("offline drawn \(after) s after SIGKILL"))
    } else {
      Issue.record(failure("no offline module in 10 s"))
    }
    // Back with the daemon and the music.
    try desktop.startDaemon()
    try desktop.play()
    if let (back, _) = try waitFor(bar, timeout: 45, { isState($0, "playing") }) {
      widths["restarted", default: []].insert(back.box.count)
    } else {
      Issue.record(failure("no playing module in 45 s after the restart"))
    }
    let all = widths.values.reduce(into: Set<Int>()) { $0.formUnion($1) }
    print("\(bar.name): module widths \(widths.mapValues { $0.sorted() })")
    #expect(all.count == 1, failure("module widths \(widths.mapValues { $0.sorted() })"))
    return widths
  }
}

import PulseBarCore
import PulseBarPlayers
import Testing

@testable import PulseBarDaemon

/// `pulsebar status` without I/O: the `status` line in the client protocol, the answer's two
/// renderings from a synthesized value, and the meters with exact times.
@Suite struct StatusTests {
  @Test(arguments: [
    ("status\n", false), ("status json\n", true), ("  status\tjson \r\n", true),
    ("status\r\n", false),
  ])
  func theStatusLineAsksForTheStatus(line: String, json: Bool) {
    var machine = ClientProtocol(connectedAt: 0)
    #expect(machine.received(Array(line.utf8)) == .status(json: json))
    #expect(machine.state == .closed)
    // Nothing more is read, and no deadline applies.
    #expect(machine.received(Array("format=raw\n".utf8)) == .none)
    #expect(machine.nextDeadline == nil)
  }

  @Test func theStatusLineMayArriveInPieces() {
    var machine = ClientProtocol(connectedAt: 0)
    #expect(machine.received(Array("sta".utf8)) == .none)
    #expect(machine.received(Array("tus json\n".utf8)) == .status(json: true))
  }

  @Test(arguments: ["status yaml\n", "status json json\n", "status format=raw\n"])
  func statusWithAnythingElseIsOneErrorLine(line: String) {
    var machine = ClientProtocol(connectedAt: 0)
    #expect(
      machine.received(Array(line.utf8)) == .reject("error: status takes nothing or 'json'\n"))
    #expect(machine.state == .closed)
  }

  @Test func otherLinesStillSubscribeOrFail() {
    var machine = ClientProtocol(connectedAt: 0)
    #expect(machine.received(Array("format=raw\n".utf8)) == .subscribe(.init(format: .raw)))
    var stat = ClientProtocol(connectedAt: 0)
    #expect(
      stat.received(Array("statusx\n".utf8))
        == .reject("error: expected key=value, got 'statusx'\n"))
  }

  /// A daemon with two players, one of them named to attack a terminal and a json reader.
  static let status = DaemonStatus(
    version: "0.1.0", uptime: 3725.5, configPath: "/home/u/.config/pulsebar/config",
    configExists: true, input: "auto", source: "mpv (sink input 42)", connected: true,
    state: .playing, player: "mpv",
    players: [
      PlayerSummary(name: "mpv", status: .playing),
      PlayerSummary(name: "evil\"\n\u{1B}[31m", status: .paused),
    ],
    clients: 4,
    readers: [
      .init(subscription: Subscription(format: .waybar, bars: 8, fps: 30), clients: 2),
      .init(subscription: Subscription(format: .json, bars: 16), clients: 1),
    ],
    analysisRate: 60, framesPerSecond: 30, cpuPercent: 1.24, cpuSeconds: 10.2)

  /// A failed reload: its error in json (escaped) and in text (sanitized), after how long ago.
  @Test func aFailedReloadIsShown() {
    var status = Self.status
    status.lastReloadAgo = 75
    status.lastReloadError = "/c:2: unknown key 'x\u{1B}[2J'"
    #expect(
      status.json().contains(
        #","last_reload":{"ago":75.0,"ok":false,"error":"/c:2: unknown key 'x\u001b[2J'"},"#))
    let line = status.text().split(separator: "\n").first { $0.hasPrefix("reload:") }
    #expect(
      line?.hasPrefix("reload:   1 min 15 s ago, failed, the old config stays: /c:2:") == true)
    #expect(line?.contains("\u{1B}") == false, "\(line ?? "")")
    status.lastReloadError = nil
    #expect(status.json().contains(#","last_reload":{"ago":75.0,"ok":true},"#))
  }

  @Test func theJsonAnswerIsOneEscapedObject() {
    #expect(
      Self.status.json()
        == #"{"version":"0.1.0","uptime":3725.5,"config":"/home/u/.config/pulsebar/config","config_exists":true,"last_reload":null,"input":"auto","source":"mpv (sink input 42)","connected":true,"state":"playing","player":"mpv","players":[{"name":"mpv","status":"playing"},{"name":"evil\"\n\u001b[31m","status":"paused"}],"clients":4,"subscriptions":[{"format":"waybar","bars":8,"fps":30,"clients":2},{"format":"json","bars":16,"fps":60,"clients":1}],"fps":60,"frames_last_second":30,"cpu_percent":1.24,"cpu_seconds":10.2}"#
        + "\n")
  }

  @Test func theAnswerForPeopleHasNoControlCharacters() {
    #expect(
      Self.status.text() == """
        pulsebar 0.1.0, up 1 h 2 min
        config:   /home/u/.config/pulsebar/config
        input:    auto; recording mpv (sink input 42)
        state:    playing
        player:   mpv (playing); others: evil"  [31m (paused)
        clients:  4: 2 × waybar 8 bars at 30 fps, 1 × json 16 bars at 60 fps, 1 not subscribed yet
        frames:   30 in the last second (analysing at 60 a second)
        cpu:      1.2 % over the last 10 s

        """)
  }

  @Test func withoutAServerFileOrPlayersItSaysSo() {
    var status = Self.status
    (status.connected, status.configExists, status.player, status.players) = (false, false, nil, [])
    (status.clients, status.readers) = (0, [])
    let lines = status.text().split(separator: "\n")
    #expect(lines[1] == "config:   /home/u/.config/pulsebar/config (no such file: all defaults)")
    #expect(lines[2] == "input:    auto; no audio server yet (waiting for it)")
    #expect(lines[4] == "player:   none")
    #expect(lines[5] == "clients:  none")
  }

  @Test(arguments: [
    (0.4, "0 s"), (59.4, "59 s"), (192, "3 min 12 s"), (7500, "2 h 5 min"), (273_600, "3 d 4 h"),
  ])
  func durations(seconds: Double, text: String) {
    #expect(DaemonStatus.duration(seconds) == text)
  }

  @Test func framesPerSecondCountTheLastSecond() {
    var meters = StatusMeters(startedAt: 100, cpu: 0)
    for frame in 0..<90 { meters.frame(at: 100 + Double(frame) / 30, cpu: { 0 }) }
    // Frames at 102.000 … 102.967: the 30 of the second before 102.99.
    #expect(meters.framesPerSecond(at: 102.99) == 30)
    #expect(meters.framesPerSecond(at: 103.5) == 14)  // 102.533 … 102.967
    #expect(meters.framesPerSecond(at: 105) == 0)
  }

  @Test func cpuCoversTheLastTenSecondsFromSamplesASecondApart() {
    var meters = StatusMeters(startedAt: 0, cpu: 0)
    var reads = 0
    // A frame every 0.1 s for 30 s; the process uses 0.05 s of CPU a second.
    for tenth in 1...300 {
      let now = Double(tenth) / 10
      meters.frame(
        at: now,
        cpu: {
          reads += 1
          return now * 0.05
        })
    }
    #expect(reads == 30)  // once a second, not once a frame
    let (percent, seconds) = meters.cpuPercent(at: 30, cpu: 1.5)
    #expect(seconds == 10)
    #expect(abs(percent - 5) < 1e-9)
    // Younger than the window: since the start.
    let young = StatusMeters(startedAt: 0, cpu: 0)
    #expect(young.cpuPercent(at: 4, cpu: 0.2) == (5, 4))
  }

  @Test func afterAPauseTheSpanSaysHowLong() {
    var meters = StatusMeters(startedAt: 0, cpu: 0)
    for second in 1...5 { meters.frame(at: Double(second), cpu: { Double(second) * 0.01 }) }
    // No frame since 5 s: the newest sample at least 10 s old is the one at 5 s.
    let (percent, seconds) = meters.cpuPercent(at: 65, cpu: 0.05 + 0.6)
    #expect(seconds == 60)
    #expect(abs(percent - 1) < 1e-9)
  }

  @Test func theRosterListsTheShownPlayersTheActiveOneFirst() {
    var registry = PlayerRegistry()
    registry.preference = PlayerPreference(ignore: ["firefox"])
    let prefix = "org.mpris.MediaPlayer2."
    for (index, name) in ["mpv", "spotify", "firefox", "vlc"].enumerated() {
      registry.appeared(prefix + name, owner: ":1.\(index)")
      if name != "vlc" { registry.loaded(prefix + name) }  // vlc has not answered yet
    }
    registry.update(prefix + "mpv", status: .paused)
    registry.update(prefix + "spotify", status: .playing)
    registry.update(prefix + "firefox", status: .playing)
    #expect(
      registry.summaries == [
        PlayerSummary(name: "spotify", status: .playing),
        PlayerSummary(name: "mpv", status: .paused),
      ])
    let roster = PlayerRoster()
    roster.update(registry.summaries)
    #expect(roster.current.map(\.name) == ["spotify", "mpv"])
  }
}

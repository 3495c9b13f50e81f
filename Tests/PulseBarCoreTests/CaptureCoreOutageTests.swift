import Testing

@testable import PulseBarCore

/// ``CaptureCore`` through the server's outages, a named source, reloads and stopping, as tables
/// of event orders at exact times: the server killed and back (one line when it goes, one when
/// it is back, attempts 0.1, 0.2, 0.4, 0.8, 1.6, 2, 2 s apart), a record stream that fails, a
/// source that does not exist yet.
@Suite struct CaptureCoreOutageTests {
  typealias Step = CaptureStep
  typealias Script = CaptureCoreScript
  static let gone =
    "log PulseAudio: Connection terminated; retrying with back-off (is pulseaudio or pipewire-pulse running? `pactl info` tells)"

  /// Attempts that the server refuses, at `time`, each the next delay later.
  static func refused(from time: Double, delays: [Double]) -> [Step] {
    var steps: [Step] = []
    var now = time
    for delay in delays {
      steps.append(Step(now, .timerFired, "connect"))
      steps.append(
        Step(
          now, .serverLost(reason: "Connection refused"),
          "disconnect; timer \(((now + delay) * 1000).rounded() / 1000)"))
      now += delay
    }
    return steps
  }

  static let killedAndBack: [Step] =
    [
      Step(
        1.0, .streamUpdated(Script.input(7, sink: 1, pid: 200)),
        "uncork#1; status running 'a.monitor'"),
      Step(
        10.0, .serverLost(reason: "Connection terminated"),
        "\(gone); close#1; disconnect; timer 10.1; status offline none 'a.monitor'"),
    ]
    + refused(from: 10.1, delays: [0.2, 0.4, 0.8, 1.6, 2, 2])
    + [
      Step(17.1, .timerFired, "connect"),
      Step(17.2, .connected, "log PulseAudio: connected again; server?; status none 'a.monitor'"),
      Step(17.3, .serverDescribed(onPipeWire: false, defaultSink: "a"), "sink? a"),
      Step(17.4, Script.sink("a", 1), "generation a.monitor; open#2 a.monitor onset corked s16"),
      // Its sink inputs are listed again.
      Step(17.5, .streamUpdated(Script.input(7, sink: 1, pid: 200)), "status running 'a.monitor'"),
      Step(17.6, .recordStreamReady(.init(2)), "uncork#2"),
      // The back-off started over: a stream that fails is made again 0.1 s later.
      Step(20.0, .recordStreamEnded(.init(2)), "close#2; timer 20.1; status none 'a.monitor'"),
      Step(20.1, .timerFired, "server?"),
    ]

  static let lostWhilePlayerRecorded: [Step] = [
    Step(
      1.0, .playerChanged(Script.mpv()), "status none 'a.monitor (output: no stream of mpv plays)'"),
    Step(
      1.1, .streamUpdated(Script.input(7, sink: 1)),
      "open#2 input 7 onset s16; mix #2; uncork#1; status running 'mpv (sink input 7)'"),
    Step(
      5.0, .serverLost(reason: "Connection terminated"),
      "\(gone); close#2; close#1; disconnect; timer 5.1; status offline none 'mpv (sink input 7)'"),
    Step(5.1, .timerFired, "connect"),
    Step(
      5.2, .connected, "log PulseAudio: connected again; server?; status none 'mpv (sink input 7)'"),
    Step(5.3, .serverDescribed(onPipeWire: false, defaultSink: "a"), "sink? a"),
    Step(5.4, Script.sink("a", 1), "generation a.monitor; open#3 a.monitor onset corked s16"),
  ]

  static let rows: [(String, [Step])] = [
    ("the server killed, refusing 6 attempts, and back", killedAndBack),
    ("the server killed while the player's stream was recorded", lostWhilePlayerRecorded),
    (
      "a record stream the server would not make is tried again after the back-off",
      [
        Step(
          1.0, .recordStreamRefused(.init(1), reason: "cannot record a.monitor: No such entity"),
          "log PulseAudio: cannot record a.monitor: No such entity; close#1; timer 1.1"),
        Step(1.1, .timerFired, "server?"),
        Step(1.2, .serverDescribed(onPipeWire: false, defaultSink: "a"), "sink? a"),
        Step(1.3, Script.sink("a", 1), "generation a.monitor; open#2 a.monitor onset corked s16"),
      ]
    ),
    (
      "a reload remakes the output's stream on the same source; a new analysis rate resizes the steady fragment",
      [
        Step(
          1.0, .streamUpdated(Script.input(7, sink: 1, pid: 200)),
          "uncork#1; status running 'a.monitor'"),
        Step(1.1, .reconfigured(scope: nil, format: false, steadyFragment: true), ""),
        Step(1.2, .fragment(.init(1), frames: 30000), "steady#1"),
        Step(1.3, .reconfigured(scope: nil, format: false, steadyFragment: true), "steady#1"),
        // fps and the analysis rate in one event: the stream made again takes the onset
        // fragment, no resize of the one closed.
        Step(
          2.0, .reconfigured(scope: nil, format: true, steadyFragment: true),
          "close#1; generation a.monitor switch; open#2 a.monitor onset s16"),
      ]
    ),
    (
      "stop closes everything once",
      [
        Step(1.0, .stop, "close#1; disconnect; status offline none 'a.monitor'"),
        Step(1.1, .stop, ""), Step(1.2, .timerFired, ""), Step(1.3, .start, ""),
      ]
    ),
  ]

  @Test("outage, failure, reload and stop event orders", arguments: rows)
  func outages(_ name: String, _ steps: [Step]) {
    var core = Script.core()
    Script.run(&core, Script.connectedOnA() + steps, name)
  }

  @Test("a named source: looked up by name, said missing once, recorded when it appears, pinned")
  func namedSource() {
    var core = Script.core(named: "mic")
    let source = SourceDescription(name: "mic", monitorOfSink: nil, int16: false, rate: 48000)
    Script.run(
      &core,
      [
        Step(0, .start, "connect"),
        Step(0.01, .connected, "server?; status none"),
        Step(0.02, .serverDescribed(onPipeWire: false, defaultSink: "a"), "source? mic"),
        Step(0.03, .sourceMissing("mic"), "log PulseAudio: no source named mic; waiting for it"),
        Step(1.0, .devicesChanged, "server?"),
        Step(1.01, .serverDescribed(onPipeWire: false, defaultSink: "a"), "source? mic"),
        Step(1.02, .sourceMissing("mic"), ""),
        // The player is ignored: a named source records what it names.
        Step(1.5, .playerChanged(Script.mpv()), ""),
        Step(1.6, .streamUpdated(Script.input(7, sink: 1)), ""),
        Step(2.0, .devicesChanged, "server?"),
        Step(2.01, .serverDescribed(onPipeWire: false, defaultSink: "a"), "source? mic"),
        Step(
          2.02, .sourceDescribed(source),
          "generation mic switch; open#1 mic onset pinned; status running 'mic'"),
        Step(2.03, .recordStreamReady(.init(1)), ""),
      ], "named")
  }
}

import Testing

@testable import PulseBarCore

/// ``CaptureCore`` driven as native PipeWire drives it, as tables of event orders at exact
/// times: stream nodes whose state goes suspended and running, a player's node that WirePlumber
/// moves to another sink (its stream targets the node and follows it), a default switch and a
/// reload while the player's streams deliver.
@Suite struct CaptureCoreNativePipeWireTests {
  typealias Step = CaptureStep
  typealias Script = CaptureCoreScript
  static let noStream = "a.monitor (output: no stream of mpv plays)"

  /// Another program's node 30 runs and suspends: the monitor stream is made active and
  /// inactive (no fragment sizes: one quantum throughout).
  static let suspendedAndRunning: [Step] = [
    Step(
      1.0, .streamUpdated(Script.input(30, sink: 1, pid: 200)),
      "uncork#1; status running 'a.monitor'"),
    Step(
      2.0, .streamUpdated(Script.input(30, sink: 1, running: false, pid: 200)),
      "cork#1; status corked 'a.monitor'"),
    Step(
      2.5, .streamUpdated(Script.input(30, sink: 1, pid: 200)),
      "uncork#1; status running 'a.monitor'"),
  ]

  /// The player's node 40 on sink 1 is recorded and delivers: the monitor stream goes inactive.
  static let delivering: [Step] = [
    Step(1.0, .playerChanged(Script.mpv()), "status none '\(noStream)'"),
    Step(
      1.1, .streamUpdated(Script.input(40, sink: 1)),
      "open#2 input 40 quantum48000; mix #2; uncork#1; status running 'mpv (node 40)'"),
    Step(1.2, .recordStreamReady(.init(2)), ""),
    Step(1.3, .delivered(.init(2)), "cork#1"),
  ]

  /// The player's node 40 is recorded, delivers (the monitor goes inactive), is moved to sink
  /// 2: its stream stays; then the default follows to `b`: a new monitor stream, and no new
  /// generation while the player's stream delivers.
  static let movedAndDefaultSwitched: [Step] =
    delivering + [
      Step(2.0, .streamUpdated(Script.input(40, sink: 2)), ""),
      Step(2.1, .devicesChanged, "server?"),
      Step(2.11, .serverDescribed(onPipeWire: true, defaultSink: "b"), "sink? b"),
      Step(2.12, Script.sink("b", 2, pipeWire: true), "close#1; open#3 b.monitor quantum48000"),
      Step(2.13, .recordStreamReady(.init(3)), "cork#3"),
      Step(
        3.0, .playerChanged(Script.mpv(playing: false)),
        "close#2; mix; uncork#3; status running 'b.monitor (output: mpv does not play)'"),
    ]

  /// A reload while the player's node is recorded: the monitor stream and the player's are
  /// made again at the new format, under a new generation.
  static let reloadedWhileDelivering: [Step] =
    delivering + [
      Step(
        2.0, .reconfigured(scope: nil, format: true, steadyFragment: false),
        "close#2; close#1; generation a.monitor switch; open#3 a.monitor quantum48000;"
          + " open#4 input 40 quantum48000; mix #4; status running 'mpv (node 40)'"),
      Step(2.1, .recordStreamReady(.init(3)), ""),
      Step(2.2, .recordStreamReady(.init(4)), ""),
      Step(2.3, .delivered(.init(4)), "cork#3"),
    ]

  /// A reload to `input.scope = output` while the player's node is recorded: its stream is
  /// closed and the monitor's audio shows again, in the one event.
  static let reloadedToOutput: [Step] =
    delivering + [
      Step(
        2.0, .reconfigured(scope: .output, format: false, steadyFragment: false),
        "close#2; mix; uncork#1; status running 'a.monitor'")
    ]

  /// A reload to `input.scope = output` and mono at once: one event makes the monitor's
  /// stream again and opens none of the player's.
  static let reloadedToOutputAndMono: [Step] =
    delivering + [
      Step(
        2.0, .reconfigured(scope: .output, format: true, steadyFragment: false),
        "close#2; close#1; generation a.monitor switch; open#3 a.monitor quantum48000")
    ]

  static let rows: [(String, [Step])] = [
    ("another program's node suspends and runs again", suspendedAndRunning),
    ("the player's node moves; the default follows", movedAndDefaultSwitched),
    ("a reload while the player's node is recorded", reloadedWhileDelivering),
    ("a reload to scope output while the player's node is recorded", reloadedToOutput),
    ("a reload to scope output and mono at once", reloadedToOutputAndMono),
  ]

  @Test("native PipeWire event orders", arguments: rows)
  func nativePipeWire(_ name: String, _ steps: [Step]) {
    var core = Script.nativePipeWire()
    Script.run(&core, Script.connectedOnA(pipeWire: true) + steps, name)
  }

  @Test("the -v lines say the monitor stream is inactive, and why")
  func inactiveLines() {
    var core = Script.nativePipeWire()
    Script.run(&core, Script.connectedOnA(pipeWire: true), "connect")
    var lines: [String] = []
    for (time, event) in [
      (1.0, CaptureEvent.playerChanged(Script.mpv())),
      (1.1, .streamUpdated(Script.input(40, sink: 1))),
      (1.2, .recordStreamReady(.init(2))), (1.3, .delivered(.init(2))),
      (2.0, .playerChanged(nil)), (2.1, .streamRemoved(40)),
    ] {
      for case .debug(let line) in core.handle(event, at: time)
      where line.contains("capture stream") {
        lines.append(line)
      }
    }
    #expect(
      lines == [
        "PipeWire: capture stream active (a stream plays)",
        "PipeWire: capture stream inactive (the player's streams are recorded)",
        "PipeWire: capture stream active (a stream plays)",
        "PipeWire: capture stream inactive (no stream plays)",
      ])
  }
}

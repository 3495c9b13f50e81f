import Testing

@testable import PulseBarCore

/// ``CaptureCore`` following the default sink, as tables of event orders at exact times: the
/// default switched mid-fragment in PulseAudio's order (server event, lookups, the sink input
/// moved) and in pipewire-pulse's (the record stream moved first, the server info still naming
/// the old default, the default then set by WirePlumber's metadata); sinks appearing in bursts.
@Suite struct CaptureCoreDefaultSinkTests {
  typealias Step = CaptureStep
  static let s1 = RecordStreamID(1)
  static let s2 = RecordStreamID(2)
  static let other = CaptureCoreScript.input(7, sink: 1, pid: 200)

  static let rows: [(String, pipeWire: Bool, [Step])] = [
    (
      "PulseAudio: the default switched to b mid-fragment; the old stream's late fragment changes nothing",
      false,
      [
        Step(1.0, .streamUpdated(other), "uncork#1; status running 'a.monitor'"),
        Step(1.1, .fragment(s1, frames: 22016), ""),
        Step(1.2, .fragment(s1, frames: 512), "steady#1"),
        Step(2.0, .devicesChanged, "server?"),
        Step(2.001, .fragment(s1, frames: 3072), ""),
        Step(2.01, .serverDescribed(onPipeWire: false, defaultSink: "b"), "sink? b"),
        Step(
          2.015, .streamUpdated(CaptureCoreScript.input(7, sink: 2, pid: 200)),
          "onset#1; cork#1; status none 'a.monitor'"),
        Step(
          2.02, CaptureCoreScript.sink("b", 2),
          "close#1; generation b.monitor switch; open#2 b.monitor onset s16; status running 'b.monitor'"
        ),
        Step(2.03, .fragment(s1, frames: 3072), ""),
        Step(2.05, .recordStreamReady(s2), ""),
        Step(2.06, .fragment(s2, frames: 512), ""),
      ]
    ),
    (
      "pipewire-pulse: the stream moved first, the server info still names a, WirePlumber's metadata then b",
      true,
      [
        Step(1.0, .streamUpdated(other), "uncork#1; status running 'a.monitor'"),
        Step(1.1, .fragment(s1, frames: 1024), ""),
        Step(
          2.0, .recordStreamMoved(s1, to: "b.monitor"),
          "source? b.monitor; timer 2.5; generation b.monitor switch"),
        Step(
          2.01, .streamUpdated(CaptureCoreScript.input(7, sink: 2, pid: 200)),
          "cork#1; status none 'b.monitor'"),
        Step(
          2.02, .sourceDescribed(SourceDescription(name: "b.monitor", monitorOfSink: 2)),
          "uncork#1; status running 'b.monitor'"),
        Step(2.5, .timerFired, "server?"),
        Step(2.51, .serverDescribed(onPipeWire: true, defaultSink: "a"), "sink? a"),
        Step(2.52, CaptureCoreScript.sink("a", 1, pipeWire: true), "timer 4.52"),
        Step(3.0, .serverDescribed(onPipeWire: true, defaultSink: "b"), "sink? b"),
        Step(3.02, CaptureCoreScript.sink("b", 2, pipeWire: true), ""),
        Step(4.52, .timerFired, "server?"),
        Step(4.53, .serverDescribed(onPipeWire: true, defaultSink: "b"), "sink? b"),
        Step(4.54, CaptureCoreScript.sink("b", 2, pipeWire: true), ""),
      ]
    ),
    (
      "pipewire-pulse: a stream moved by hand goes back to the default's monitor 2.5 s after",
      true,
      [
        Step(
          1.0, .recordStreamMoved(s1, to: "b.monitor"),
          "source? b.monitor; timer 1.5; generation b.monitor"),
        Step(1.01, .sourceDescribed(SourceDescription(name: "b.monitor", monitorOfSink: 2)), ""),
        Step(1.5, .timerFired, "server?"),
        Step(1.51, .serverDescribed(onPipeWire: true, defaultSink: "a"), "sink? a"),
        Step(1.52, CaptureCoreScript.sink("a", 1, pipeWire: true), "timer 3.52"),
        Step(3.52, .timerFired, "server?"),
        Step(3.53, .serverDescribed(onPipeWire: true, defaultSink: "a"), "sink? a"),
        Step(
          3.54, CaptureCoreScript.sink("a", 1, pipeWire: true),
          "close#1; generation a.monitor; open#2 a.monitor quantum48000 corked"),
      ]
    ),
    (
      "a burst of sink events: one lookup each, one new stream only when the default changed",
      false,
      Array(repeating: Step(1.0, .devicesChanged, "server?"), count: 5)
        + Array(
          repeating: Step(1.01, .serverDescribed(onPipeWire: false, defaultSink: "a"), "sink? a"),
          count: 5)
        + Array(repeating: Step(1.02, CaptureCoreScript.sink("a", 1), ""), count: 5)
        + [
          Step(2.0, .devicesChanged, "server?"), Step(2.0, .devicesChanged, "server?"),
          Step(2.0, .devicesChanged, "server?"),
          Step(2.01, .serverDescribed(onPipeWire: false, defaultSink: "a"), "sink? a"),
          Step(2.01, .serverDescribed(onPipeWire: false, defaultSink: "b"), "sink? b"),
          Step(2.01, .serverDescribed(onPipeWire: false, defaultSink: "b"), "sink? b"),
          Step(2.02, CaptureCoreScript.sink("a", 1), ""),
          Step(
            2.02, CaptureCoreScript.sink("b", 2),
            "close#1; generation b.monitor; open#2 b.monitor onset corked s16"),
          Step(2.02, CaptureCoreScript.sink("b", 2), ""),
        ]
    ),
    (
      "the default sink goes away: nothing recorded until one appears",
      false,
      [
        Step(1.0, .devicesChanged, "server?"),
        Step(1.01, .serverDescribed(onPipeWire: false, defaultSink: nil), "close#1; status none"),
        Step(2.0, .devicesChanged, "server?"),
        Step(2.01, .serverDescribed(onPipeWire: false, defaultSink: "b"), "sink? b"),
        Step(
          2.02, CaptureCoreScript.sink("b", 2),
          "generation b.monitor; open#2 b.monitor onset corked s16"),
      ]
    ),
  ]

  @Test("default-sink event orders", arguments: rows)
  func followsTheDefault(_ name: String, pipeWire: Bool, _ steps: [Step]) {
    var core = CaptureCoreScript.core()
    CaptureCoreScript.run(&core, CaptureCoreScript.connectedOnA(pipeWire: pipeWire) + steps, name)
  }

  @Test("fragments of a stream already replaced are dropped; the new one's are kept")
  func lateFragmentsDropped() {
    var core = CaptureCoreScript.core()
    CaptureCoreScript.run(
      &core, CaptureCoreScript.connectedOnA() + Array(Self.rows[0].2.prefix(8)), "switch")
    #expect(!core.keepsFragments(of: Self.s1))
    #expect(core.keepsFragments(of: Self.s2))
  }
}

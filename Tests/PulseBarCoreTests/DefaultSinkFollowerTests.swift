import Testing

@testable import PulseBarCore

/// Default-sink following and server moves (``DefaultSinkFollower``), driven with the events the
/// libpulse callbacks translate, at exact times; each sequence is one a server produced.
@Suite struct DefaultSinkFollowerTests {
  /// An event the connection feeds in, with what the follower must answer.
  enum Step: Sendable, CustomStringConvertible {
    /// A lookup at a time found a source (and its sink); the decision.
    case lookedUp(String, sink: UInt32?, at: Double, DefaultSinkFollower.Decision)
    /// The server moved the stream at a time; when the default is looked up.
    case moved(to: String, at: Double, lookUpAt: Double)
    /// A source info named a source's sink; what it changed.
    case learned(sink: UInt32?, of: String, DefaultSinkFollower.SinkUpdate)
    /// The record stream closed (failed, or remade at a new format).
    case closed
    /// What is recorded and which sink drives the activity now.
    case expect(recorded: String?, sink: UInt32?)

    var description: String {
      switch self {
      case .lookedUp(let source, let sink, let time, let decision):
        "lookedUp(\(source), \(sink.map(String.init) ?? "nil"), \(time)) -> \(decision)"
      case .moved(let source, let time, let lookUpAt): "moved(\(source), \(time)) -> \(lookUpAt)"
      case .learned(let sink, let source, let update):
        "learned(\(sink ?? 0), \(source)) -> \(update)"
      case .closed: "closed"
      case .expect(let recorded, let sink): "expect(\(recorded ?? "nil"), \(sink ?? 0))"
      }
    }
  }

  /// Recording pb_sink_a's monitor (sink 1) since t = 0.
  static let onA: [Step] = [
    .lookedUp("a.monitor", sink: 1, at: 0, .record("a.monitor")),
    .expect(recorded: "a.monitor", sink: 1),
  ]

  static let sequences: [(String, [Step])] = [
    (
      "a default switch: the move and the server event's lookup agree, nothing goes back",
      onA + [
        .moved(to: "b.monitor", at: 10, lookUpAt: 10.5),
        .lookedUp("b.monitor", sink: 2, at: 10.01, .keep(sinkChanged: true)),
        .learned(sink: 2, of: "b.monitor", .unchanged),
        .lookedUp("b.monitor", sink: 2, at: 10.5, .keep(sinkChanged: false)),
        .expect(recorded: "b.monitor", sink: 2),
      ]
    ),
    (
      "pipewire-pulse names the old default 0.5 s after WirePlumber moved us, then no event: the move stands",
      onA + [
        .moved(to: "b.monitor", at: 10, lookUpAt: 10.5),
        // The moved-to monitor's sink drives the activity at once.
        .learned(sink: 2, of: "b.monitor", .changed),
        .expect(recorded: "b.monitor", sink: 2),
        .lookedUp("a.monitor", sink: 1, at: 10.5, .keepMove(lookAgainAt: 12.5)),
        .expect(recorded: "b.monitor", sink: 2),
        // The timer's lookup: the server names the new default by now.
        .lookedUp("b.monitor", sink: 2, at: 12.5, .keep(sinkChanged: false)),
        .expect(recorded: "b.monitor", sink: 2),
        // The move is settled: a later lookup naming pb_sink_a is a real default switch.
        .lookedUp("a.monitor", sink: 1, at: 30, .record("a.monitor")),
      ]
    ),
    (
      "a stream moved by hand goes back to the default's monitor 2.5 s after the move",
      onA + [
        .moved(to: "b.monitor", at: 20, lookUpAt: 20.5),
        .learned(sink: 2, of: "b.monitor", .changed),
        .lookedUp("a.monitor", sink: 1, at: 20.5, .keepMove(lookAgainAt: 22.5)),
        .lookedUp("a.monitor", sink: 1, at: 22.5, .record("a.monitor")),
        .expect(recorded: "a.monitor", sink: 1),
      ]
    ),
    (
      "a lookup another event asked for between the two does not end the wait early",
      onA + [
        .moved(to: "b.monitor", at: 40, lookUpAt: 40.5),
        .lookedUp("a.monitor", sink: 1, at: 40.5, .keepMove(lookAgainAt: 42.5)),
        .lookedUp("a.monitor", sink: 1, at: 41, .keepMove(lookAgainAt: nil)),
        .lookedUp("a.monitor", sink: 1, at: 42.29, .keepMove(lookAgainAt: nil)),
        // 0.9 of the 2 s: the timer's own lookup, a little early by the other clock.
        .lookedUp("a.monitor", sink: 1, at: 42.31, .record("a.monitor")),
      ]
    ),
    (
      "a lookup that names a third source ends the wait and records it",
      onA + [
        .moved(to: "b.monitor", at: 5, lookUpAt: 5.5),
        .lookedUp("c.monitor", sink: 3, at: 5.5, .record("c.monitor")),
        .expect(recorded: "c.monitor", sink: 3),
      ]
    ),
    (
      "the source info of a monitor the stream already left changes nothing",
      onA + [
        .moved(to: "b.monitor", at: 1, lookUpAt: 1.5),
        .moved(to: "c.monitor", at: 1.1, lookUpAt: 1.6),
        .learned(sink: 2, of: "b.monitor", .ignored),
        .learned(sink: 3, of: "c.monitor", .changed),
        .expect(recorded: "c.monitor", sink: 3),
        // Moved from b to c: naming a is a third source.
        .lookedUp("a.monitor", sink: 1, at: 1.6, .record("a.monitor")),
      ]
    ),
    (
      "a closed stream forgets the move: the next lookup records what it names",
      onA + [
        .moved(to: "b.monitor", at: 3, lookUpAt: 3.5),
        .closed,
        .expect(recorded: nil, sink: 1),
        .lookedUp("a.monitor", sink: 1, at: 3.5, .record("a.monitor")),
      ]
    ),
    (
      "a stream remade at a new format records the same source again",
      onA + [.closed, .lookedUp("a.monitor", sink: 1, at: 7, .record("a.monitor"))]
    ),
  ]

  @Test("following the default", arguments: sequences)
  func following(_ name: String, _ steps: [Step]) {
    run(DefaultSinkFollower(followsDefault: true), name, steps)
  }

  @Test("a named source is never held by a move: the lookup's answer is recorded")
  func namedSource() {
    run(
      DefaultSinkFollower(followsDefault: false), "named",
      [
        .lookedUp("mic", sink: nil, at: 0, .record("mic")),
        .expect(recorded: "mic", sink: nil),
        .moved(to: "other", at: 1, lookUpAt: 1.5),
        .lookedUp("mic", sink: nil, at: 1.5, .record("mic")),
        .lookedUp("mic", sink: nil, at: 2, .keep(sinkChanged: false)),
      ])
  }

  @Test("a missing named source is said once until it appears, then once again")
  func missingNamedSource() {
    var follower = DefaultSinkFollower(followsDefault: false)
    let first = follower.namedSourceMissing()
    let second = follower.namedSourceMissing()
    let found = follower.lookedUp("mic", monitoring: nil, at: 1)
    let again = follower.namedSourceMissing()
    #expect(first && !second && found == .record("mic") && again)
    #expect(follower.recorded == nil && follower.monitoredSink == nil)
  }

  @Test("nothing to record (no default sink, a lost connection) forgets the sink too")
  func nothingToRecord() {
    var follower = DefaultSinkFollower(followsDefault: true)
    _ = follower.lookedUp("a.monitor", monitoring: 1, at: 0)
    _ = follower.streamMoved(to: "b.monitor", at: 1)
    follower.nothingToRecord()
    #expect(follower.recorded == nil && follower.monitoredSink == nil)
    let decision = follower.lookedUp("a.monitor", monitoring: 1, at: 1.5)
    #expect(decision == .record("a.monitor"))
  }

  private func run(_ start: DefaultSinkFollower, _ name: String, _ steps: [Step]) {
    var follower = start
    for (index, step) in steps.enumerated() {
      let at = "step \(index) of \(name): \(step)"
      switch step {
      case .lookedUp(let source, let sink, let time, let decision):
        let got = follower.lookedUp(source, monitoring: sink, at: time)
        #expect(got == decision, "\(at): got \(got)")
      case .moved(let source, let time, let lookUpAt):
        let got = follower.streamMoved(to: source, at: time)
        #expect(got == lookUpAt, "\(at): got \(got)")
      case .learned(let sink, let source, let update):
        let got = follower.learned(sink: sink, of: source)
        #expect(got == update, "\(at): got \(got)")
      case .closed:
        follower.streamClosed()
      case .expect(let recorded, let sink):
        #expect(follower.recorded == recorded, "\(at): \(follower.recorded ?? "nil")")
        #expect(follower.monitoredSink == sink, "\(at): \(follower.monitoredSink ?? 0)")
      }
    }
  }
}

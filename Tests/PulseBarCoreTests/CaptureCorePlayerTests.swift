import Testing

@testable import PulseBarCore

/// ``CaptureCore`` recording the active player's own streams, as tables of event orders at
/// exact times: a player that starts, delivers (the hand-over), pauses, plays on, is moved to
/// another sink and quits, on PulseAudio (sink inputs) and on PipeWire (stream nodes that
/// appear before or after their links); and 50 streams of one player.
@Suite struct CaptureCorePlayerTests {
  typealias Step = CaptureStep
  typealias Script = CaptureCoreScript
  static let output = RecordStreamID(1)
  static let noStream = "a.monitor (output: no stream of mpv plays)"

  /// A player's life on PulseAudio: its sink input 7 on sink 1.
  static let pulseLife: [Step] = [
    Step(
      1.0, .streamUpdated(Script.input(7, sink: 1, running: false)), "status corked 'a.monitor'"),
    Step(1.1, .playerChanged(Script.mpv()), "status corked '\(noStream)'"),
    Step(
      1.2, .streamUpdated(Script.input(7, sink: 1)),
      "open#2 input 7 onset s16; mix #2; uncork#1; status running 'mpv (sink input 7)'"),
    Step(1.3, .recordStreamReady(.init(2)), ""),
    Step(1.31, .fragment(output, frames: 512), ""),
    // The hand-over: the output's stream goes on running (its fragment paces the sink).
    Step(1.32, .fragment(.init(2), frames: 512), ""),
    Step(1.33, .fragment(.init(2), frames: 22000), "steady#2"),
    // Paused: its stream stays open, corked, back on the onset fragment; the output shows.
    Step(
      2.0, .playerChanged(Script.mpv(playing: false)),
      "cork#2; onset#2; mix #2; status running 'a.monitor (output: mpv does not play)'"),
    Step(
      2.01, .streamUpdated(Script.input(7, sink: 1, running: false)),
      "cork#1; status corked 'a.monitor (output: mpv does not play)'"),
    Step(
      3.0, .streamUpdated(Script.input(7, sink: 1)),
      "uncork#1; status running 'a.monitor (output: mpv does not play)'"),
    // Playing again is an uncork; its first fragment after it is the hand-over.
    Step(
      3.01, .playerChanged(Script.mpv()), "uncork#2; mix #2; status running 'mpv (sink input 7)'"),
    Step(3.03, .fragment(.init(2), frames: 512), ""),
    // Moved to sink 2: the stream on sink 1's monitor is stale, remade on sink 2's.
    Step(
      4.0, .streamUpdated(Script.input(7, sink: 2)),
      "close#2; open#3 input 7 onset s16; mix #3; cork#1; status none 'mpv (sink input 7)'"),
    Step(4.01, .recordStreamEnded(.init(2)), ""),
    Step(4.02, .recordStreamReady(.init(3)), ""),
    Step(4.03, .fragment(.init(3), frames: 512), "status running 'mpv (sink input 7)'"),
    Step(5.0, .streamRemoved(7), "close#3; mix; status none '\(noStream)'"),
    Step(5.1, .playerChanged(nil), "status none 'a.monitor'"),
  ]

  /// The same on pipewire-pulse: the output's stream corks once the player's delivers (the
  /// graph keeps its quantum whatever a stream asks).
  static let pipeWireLife: [Step] = [
    Step(1.0, .playerChanged(Script.mpv()), "status none '\(noStream)'"),
    Step(
      1.2, .streamUpdated(Script.input(7, sink: 1)),
      "open#2 input 7 quantum48000; mix #2; uncork#1; status running 'mpv (sink input 7)'"),
    Step(1.3, .recordStreamReady(.init(2)), ""),
    Step(1.32, .fragment(.init(2), frames: 1024), "cork#1"),
    Step(1.33, .fragment(.init(2), frames: 30000), ""),
    Step(
      2.0, .playerChanged(Script.mpv(playing: false)),
      "cork#2; mix #2; uncork#1; status running 'a.monitor (output: mpv does not play)'"),
    Step(
      3.0, .playerChanged(Script.mpv()), "uncork#2; mix #2; status running 'mpv (sink input 7)'"),
    Step(3.05, .fragment(.init(2), frames: 1024), "cork#1"),
    // Paused, then another player: the paused one's stream is closed.
    Step(
      4.0, .playerChanged(Script.mpv(playing: false)),
      "cork#2; mix #2; uncork#1; status running 'a.monitor (output: mpv does not play)'"),
    Step(
      4.1, .playerChanged(PlayerAudioIdentity(name: "vlc", processID: 300, playing: false)),
      "close#2; mix; status running 'a.monitor (output: vlc does not play)' others"),
  ]

  /// PipeWire's graph: a node before its link has no sink yet and waits; with both, recorded.
  static let nodeBeforeLink: [Step] = [
    Step(1.0, .playerChanged(Script.mpv()), "status none '\(noStream)'"),
    Step(1.1, .streamUpdated(Script.input(40, sink: nil)), "status none 'mpv (sink input 40)'"),
    Step(
      1.2, .streamUpdated(Script.input(40, sink: 1)),
      "open#2 input 40 quantum48000; mix #2; uncork#1; status running 'mpv (sink input 40)'"),
  ]

  /// The link first (the adapter holds it until its node is there): the node comes with its sink.
  static let linkBeforeNode: [Step] = [
    Step(1.0, .playerChanged(Script.mpv()), "status none '\(noStream)'"),
    Step(
      1.1, .streamUpdated(Script.input(40, sink: 1)),
      "open#2 input 40 quantum48000; mix #2; uncork#1; status running 'mpv (sink input 40)'"),
  ]

  /// A stream the server will not record alone is left to the output until it changes.
  static let refused: [Step] = [
    Step(1.0, .playerChanged(Script.mpv()), "status none '\(noStream)'"),
    Step(
      1.1, .streamUpdated(Script.input(7, sink: 1)),
      "open#2 input 7 onset s16; mix #2; uncork#1; status running 'mpv (sink input 7)'"),
    Step(
      1.2, .recordStreamRefused(.init(2), reason: "cannot record sink input 7 alone"),
      "close#2; status running '\(noStream)'"),
    Step(
      1.3, .streamUpdated(Script.input(7, sink: 1)),
      "open#3 input 7 onset s16; mix #3; status running 'mpv (sink input 7)'"),
  ]

  static let rows: [(String, pipeWire: Bool, [Step])] = [
    ("PulseAudio: starts, hands over, pauses, plays, moves to sink 2, quits", false, pulseLife),
    ("pipewire-pulse: the output's stream corks once the player's delivers", true, pipeWireLife),
    ("PipeWire: a node before its link", true, nodeBeforeLink),
    ("PipeWire: a link before its node", true, linkBeforeNode),
    ("a sink input the server will not record alone", false, refused),
  ]

  @Test("player event orders", arguments: rows)
  func recordsThePlayer(_ name: String, pipeWire: Bool, _ steps: [Step]) {
    var core = Script.core()
    Script.run(&core, Script.connectedOnA(pipeWire: pipeWire) + steps, name)
  }

  @Test("the output's fragments until the player's first; the player's from then on")
  func handOverKeepsOneSignal() {
    var core = Script.core()
    Script.run(&core, Script.connectedOnA() + Array(Self.pulseLife.prefix(5)), "before")
    #expect(core.keepsFragments(of: Self.output) && !core.keepsFragments(of: .init(2)))
    _ = core.handle(.fragment(.init(2), frames: 512), at: 1.32)
    #expect(!core.keepsFragments(of: Self.output) && core.keepsFragments(of: .init(2)))
  }

  @Test(
    "paused, the player's stream is kept corked and the output shows; played again, the output's fragments until the stream's first after the uncork"
  )
  func handOverAfterAnUncork() {
    var core = Script.core()
    Script.run(&core, Script.connectedOnA() + Array(Self.pulseLife.prefix(8)), "paused")
    #expect(core.player.streams.map(\.parked) == [true])
    // A fragment already on its way when it corked is dropped and hands nothing over.
    #expect(core.handle(.fragment(.init(2), frames: 512), at: 2.005).isEmpty)
    #expect(core.keepsFragments(of: Self.output) && !core.keepsFragments(of: .init(2)))
    _ = core.handle(.playerChanged(Script.mpv()), at: 3.01)
    #expect(core.keepsFragments(of: Self.output) && !core.keepsFragments(of: .init(2)))
    _ = core.handle(.fragment(.init(2), frames: 512), at: 3.03)
    #expect(!core.keepsFragments(of: Self.output) && core.keepsFragments(of: .init(2)))
  }

  @Test(
    "50 streams of one player: 8 recorded and mixed, all closed when they go",
    arguments: [false, true])
  func fiftyStreams(pipeWire: Bool) {
    var core = Script.core()
    Script.run(&core, Script.connectedOnA(pipeWire: pipeWire), "connect")
    var actions = core.handle(.playerChanged(Script.mpv()), at: 1)
    for id in UInt32(100)..<150 {
      actions += core.handle(.streamUpdated(Script.input(id, sink: 1)), at: 1.5)
    }
    let opened = actions.compactMap { action -> UInt32? in
      guard case .open(let request) = action, case .serverStream(let id) = request.recording
      else { return nil }
      return id
    }
    #expect(opened == Array(100..<108))
    let lastMix = actions.last { if case .mix = $0 { true } else { false } }
    #expect(lastMix == .mix((2...9).map { RecordStreamID($0) }))
    #expect(core.player.target.streams.count == 50)
    // As the lowest go, the next ones take their lanes: never more than 8 open, all closed.
    var open = opened.count
    for id in UInt32(100)..<150 {
      for action in core.handle(.streamRemoved(id), at: 2) {
        if case .close = action { open -= 1 }
        if case .open = action { open += 1 }
      }
      #expect(open <= 8, "after \(id) went")
    }
    #expect(open == 0)
    #expect(core.published.sourceName == Self.noStream)
  }
}

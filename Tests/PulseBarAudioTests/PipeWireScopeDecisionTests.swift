import PulseBarCore
import Testing

@testable import PulseBarAudio

/// Which of the player's streams each mixer lane sums on PipeWire (``PlayerStreamLanes``), and
/// what of the graph the capture core is told, in the orders the registry tells it
/// (``PipeWireGraphEvents``), with no server.
@Suite struct PipeWireScopeDecisionTests {
  /// What `lanes` hands on when the stream `key` writes `samples`.
  static func write(_ samples: [Float], from key: UInt64, _ lanes: PlayerStreamLanes) -> [Float] {
    var emitted: [Float] = []
    samples.withUnsafeBufferPointer { samples in
      lanes.write(samples, from: key) { emitted += $0 }
    }
    return emitted
  }

  @Test func eachLaneSumsTheStreamWhoseKeyItWasGiven() {
    let lanes = Self.lanes(keys: [7, 3])
    // Lane 1 (key 3) waits for lane 0 (key 7); then both are summed.
    #expect(Self.write([1, 1], from: 3, lanes).isEmpty)
    #expect(Self.write([2, 2], from: 7, lanes) == [3, 3])
    // A stream no lane was given for is not mixed.
    #expect(Self.write([5, 5], from: 9, lanes).isEmpty)
    #expect(Self.write([1, 1], from: 3, lanes).isEmpty)
  }

  @Test func aResetGivesTheLanesToTheNewSetOnly() {
    var lanes = Self.lanes(keys: [7, 3])
    #expect(Self.write([1, 1], from: 3, lanes).isEmpty)
    lanes.reset(keys: [3])
    // One lane passes straight through; what the old set queued is gone.
    #expect(Self.write([4], from: 3, lanes) == [4])
    #expect(Self.write([4], from: 7, lanes).isEmpty)
  }

  /// Lanes for the streams `keys`, in order.
  static func lanes(keys: [UInt64]) -> PlayerStreamLanes {
    var lanes = PlayerStreamLanes(mixer: StreamMixer(maximumLag: 64))
    lanes.reset(keys: keys)
    return lanes
  }

  /// Sink 30 (`a`), a stream node 53 (serial 100) and its link 56, the `default.audio.sink`
  /// metadata naming `a`: each step's graph change and the events it tells the core.
  enum Change {
    case sink, node, link, runs, metadata

    func apply(to graph: inout PipeWireGraph) {
      switch self {
      case .sink: graph.addSink(id: 30, name: "a")
      case .node: graph.addStream(id: 53, serial: 100, client: nil, applicationName: "mpv")
      case .link: graph.addLink(id: 56, output: 53, input: 30)
      case .runs: graph.updateStream(id: 53, running: true)
      case .metadata: graph.defaultSinkName = "a"
      }
    }
  }

  /// The events each change in `changes` tells, in order.
  static func told(_ changes: [Change]) -> [[CaptureEvent]] {
    var graph = PipeWireGraph()
    var told = PipeWireGraphEvents()
    return changes.map { change in
      change.apply(to: &graph)
      return told.events(for: graph)
    }
  }

  static func stream(sink: UInt32?, running: Bool = false) -> CaptureEvent {
    .streamUpdated(ServerStream(id: 53, sink: sink, running: running, applicationName: "mpv"))
  }

  @Test func aNodeBeforeItsLinkIsToldWithNoSinkThenWithIt() {
    #expect(
      Self.told([.sink, .node, .link, .runs, .metadata]) == [
        [], [Self.stream(sink: nil)], [Self.stream(sink: 30)],
        [Self.stream(sink: 30, running: true)],
        [.devicesChanged],
      ])
  }

  @Test func aLinkBeforeItsNodeAndTheMetadataFirst() {
    #expect(
      Self.told([.metadata, .link, .sink, .node, .runs]) == [
        [], [], [.devicesChanged], [Self.stream(sink: 30)], [Self.stream(sink: 30, running: true)],
      ])
  }

  @Test func aNodeGoneIsRemovedAndTheDefaultSinkGoneIsADeviceChange() {
    var graph = PipeWireGraph()
    var told = PipeWireGraphEvents()
    for change: Change in [.sink, .node, .link, .metadata] { change.apply(to: &graph) }
    #expect(told.events(for: graph) == [Self.stream(sink: 30), .devicesChanged])
    #expect(told.events(for: graph).isEmpty, "what was told is not told again")
    graph.remove(id: 53)
    graph.remove(id: 30)
    #expect(told.events(for: graph) == [.streamRemoved(53), .devicesChanged])
    #expect(told.defaultSink(in: graph) == nil, "a default that names no sink is none")
  }
}

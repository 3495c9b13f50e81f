import PulseBarCore
import Testing

@testable import PulseBarAudio

/// The player scope's decisions on PipeWire as plain functions and values, with no server:
/// which ended streams leave their node failed, when the monitor stream runs, and which of the
/// player's streams each mixer lane sums.
@Suite struct PipeWireScopeDecisionTests {
  /// A graph with one playback stream node, 53, whose serial is 100.
  static var graph: PipeWireGraph {
    var graph = PipeWireGraph()
    graph.addStream(id: 53, serial: 100, client: nil, applicationName: "mpv")
    return graph
  }

  @Test func aStreamThatEndedOnTheSameNodeLeavesItFailed() {
    #expect(PipeWirePlayerScope.failedNodes(ended: [(53, 100)], in: Self.graph) == [53])
  }

  @Test func aNodeThatWentOrCameBackWithAnotherSerialIsNotFailed() {
    #expect(PipeWirePlayerScope.failedNodes(ended: [(53, 99), (60, 1)], in: Self.graph).isEmpty)
  }

  @Test(
    "the monitor runs while the sink plays and the player's streams do not deliver",
    arguments: [
      (false, StreamActivity.running, true), (true, .running, false), (false, .corked, false),
      (false, StreamActivity.none, false),
    ])
  func monitorWanted(delivers: Bool, activity: StreamActivity, wanted: Bool) {
    #expect(
      PipeWirePlayerScope.monitorWanted(playerDelivers: delivers, sinkActivity: activity)
        == wanted)
  }

  @Test func theMonitorDoesNotRunBeforeASinkIsFollowed() {
    #expect(!PipeWirePlayerScope.monitorWanted(playerDelivers: false, sinkActivity: nil))
  }

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
}

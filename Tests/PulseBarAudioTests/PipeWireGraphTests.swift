import PulseBarCore
import Testing

@testable import PulseBarAudio

/// ``PipeWireGraph``: whose stream nodes play into which sink, as the registry tells it and as
/// the capture core sees them (``PipeWireGraph/serverStreams()`` in a ``ServerStreamTable``),
/// and ``PlayerCapturePlan``: what a server's capture records from that under `input.scope`.
@Suite struct PipeWireGraphTests {
  /// Sink 30 (`pb_sink_a`, the default) and sink 31; a pipewire-pulse client 46 (the socket's
  /// process is pipewire-pulse, 900) with paplay's node 47 on sink 30, and a native client 52
  /// (pw-play, process 1556) with its node 53 on sink 30.
  func desktop() -> PipeWireGraph {
    var graph = PipeWireGraph()
    graph.addSink(id: 30, name: "pb_sink_a")
    graph.addSink(id: 31, name: "pb_sink_b")
    graph.defaultSinkName = "pb_sink_a"
    graph.addClient(id: 46, processID: 900)
    graph.addClient(id: 52, processID: 1556)
    graph.addStream(id: 47, serial: 49, client: 46, applicationName: "paplay")
    graph.updateStream(id: 47, processID: 1554, binary: "pacat", applicationName: "paplay")
    graph.addStream(id: 53, serial: 55, client: 52, applicationName: "pw-play")
    graph.updateStream(id: 53, processID: nil, binary: nil, applicationName: nil)
    graph.addLink(id: 50, output: 47, input: 30)
    graph.addLink(id: 51, output: 47, input: 30)
    graph.addLink(id: 56, output: 53, input: 30)
    return graph
  }

  @Test func aStreamNodeIsItsApplicationsByItsOwnPropertiesElseByItsClientsProcess() {
    var graph = desktop()
    graph.updateStream(id: 47, running: true)
    let streams = graph.playbackStreams().sorted { $0.id < $1.id }
    #expect(
      streams == [
        PlaybackStream(
          id: 47, processID: 1554, binary: "pacat", applicationName: "paplay", running: true),
        PlaybackStream(id: 53, processID: 1556, applicationName: "pw-play", running: false),
      ], "paplay's own pid, not pipewire-pulse's; pw-play's from its client")
    #expect(graph.stream(47)?.serial == 49)
    #expect(graph.stream(30) == nil, "a sink is no stream")
  }

  @Test func theStreamsOfASinkAreThoseLinkedToItAndFollowARelink() {
    var graph = desktop()
    #expect(graph.playbackStreams(onSink: 30).map(\.id).sorted() == [47, 53])
    #expect(graph.playbackStreams(onSink: 31).isEmpty)
    graph.remove(id: 56)
    graph.addLink(id: 57, output: 53, input: 31)
    #expect(graph.playbackStreams(onSink: 30).map(\.id) == [47])
    #expect(graph.playbackStreams(onSink: 31).map(\.id) == [53])
    graph.updateStream(id: 53, running: true)
    #expect(graph.activity(onSink: 30) == .corked)
    #expect(graph.activity(onSink: 31) == .running)
  }

  @Test func aNodeGoneOrANewNodeForgetsWhatWasKnown() {
    var graph = desktop()
    graph.updateStream(id: 47, running: true)
    graph.remove(id: 47)
    #expect(graph.stream(47) == nil)
    #expect(graph.activity(onSink: 30) == .corked, "the links left point at no stream")
    graph.addStream(id: 47, serial: 70, client: 52, applicationName: "mpv")
    #expect(
      graph.playbackStreams().first { $0.id == 47 }
        == PlaybackStream(id: 47, processID: 1556, applicationName: "mpv", running: false))
    graph.updateStream(id: 99, running: true)
    graph.updateStream(id: 99, processID: 1, binary: nil, applicationName: nil)
    #expect(graph.stream(99) == nil, "an unknown node's info adds nothing")
  }

  @Test func thePlanRecordsThePlayersRunningNodesAndSaysWhetherOthersPlay() {
    var graph = desktop()
    graph.updateStream(id: 47, running: true)
    graph.updateStream(id: 53, running: true)
    let pwPlay = PlayerAudioIdentity(name: "pw-play", processID: 1556, playing: true)
    let plan = PlayerCapturePlan(
      selection: PlayerStreamSelection(scope: .player), player: pwPlay,
      streams: graph.playbackStreams(), onOutput: graph.playbackStreams(onSink: 30),
      parentOf: { _ in nil })
    #expect(plan.target == .player(name: "pw-play", streams: [53]))
    #expect(plan.recorded == [53])
    #expect(!plan.othersPlay, "the player plays")
    var paused = pwPlay
    paused.playing = false
    let whilePaused = PlayerCapturePlan(
      selection: PlayerStreamSelection(scope: .player), player: paused,
      streams: graph.playbackStreams(), onOutput: graph.playbackStreams(onSink: 30),
      parentOf: { _ in nil })
    #expect(whilePaused.target == .output(.notPlaying("pw-play")))
    #expect(whilePaused.othersPlay, "paplay plays on")
    let output = PlayerCapturePlan(
      selection: PlayerStreamSelection(scope: .output), player: pwPlay,
      streams: graph.playbackStreams(), onOutput: nil, parentOf: { _ in nil })
    #expect(output.target == .output(.scopeIsOutput) && !output.othersPlay)
  }

  @Test func beforeTheServerIsReadyThePlanRecordsTheOutput() {
    let player = PlayerAudioIdentity(name: "mpv", processID: 10, playing: true)
    for (scope, reason) in [
      (CaptureScope.player, CaptureTarget.OutputReason.noPlayer), (.output, .scopeIsOutput),
    ] {
      let plan = PlayerCapturePlan(
        selection: PlayerStreamSelection(scope: scope), player: player, streams: nil,
        onOutput: nil, parentOf: { _ in nil })
      #expect(plan.target == .output(reason) && !plan.othersPlay && plan.recorded.isEmpty)
    }
  }

  @Test func atMostAsManyStreamsAsTheMixerHasLanesAreRecorded() {
    let streams = (0..<UInt32(12)).map {
      PlaybackStream(id: $0, processID: 10, running: true)
    }
    let plan = PlayerCapturePlan(
      selection: PlayerStreamSelection(scope: .player),
      player: PlayerAudioIdentity(name: "firefox", processID: 10, playing: true),
      streams: streams, onOutput: streams, parentOf: { _ in nil })
    #expect(plan.target.streams.count == 12)
    #expect(plan.recorded == Array(0..<UInt32(StreamMixer.maximumLanes)))
  }

  /// A capture stream in ``PlayerCapturePlan/apply(to:stream:stale:close:open:)``.
  final class Recording {
    let stream: UInt32
    var stale = false
    init(_ stream: UInt32) { self.stream = stream }
  }

  @Test func applyingAPlanClosesWhatIsNotWantedOrStaleAndOpensWhatIsMissing() {
    let plan = PlayerCapturePlan(
      selection: PlayerStreamSelection(scope: .player),
      player: PlayerAudioIdentity(name: "mpv", processID: 10, playing: true),
      streams: [1, 2, 3].map { PlaybackStream(id: $0, processID: 10, running: true) },
      onOutput: nil, parentOf: { _ in nil })
    let current = [Recording(1), Recording(2), Recording(4)]
    current[1].stale = true
    var closed: [UInt32] = []
    var opened: [UInt32] = []
    let changed = plan.apply(
      to: current, stream: \.stream, stale: \.stale, close: { closed.append($0.stream) },
      open: { id in
        opened.append(id)
        return id != 3
      })
    #expect(changed)
    #expect(closed == [2, 4] && opened == [2, 3])
    let same = plan.apply(
      to: [Recording(1), Recording(2), Recording(3)], stream: \.stream,
      close: { _ in Issue.record("closed") },
      open: { _ in
        Issue.record("opened")
        return true
      })
    #expect(!same, "nothing to do")
    let failed = plan.apply(
      to: [Recording(1), Recording(2)], stream: \.stream, close: { _ in }, open: { _ in false })
    #expect(!failed, "a stream that could not be opened changes nothing")
  }
}

extension PipeWireGraph {
  /// The stream nodes (those on `sink`, when given) as the core reads them.
  fileprivate func playbackStreams(onSink sink: UInt32? = nil) -> [PlaybackStream] {
    table.playbackStreams(onSink: sink)
  }

  /// What plays into `sink`, as the core reads it.
  fileprivate func activity(onSink sink: UInt32) -> StreamActivity {
    table.activity(onSink: sink)
  }

  /// The stream nodes in the core's model.
  private var table: ServerStreamTable {
    var table = ServerStreamTable()
    for stream in serverStreams().values { table.update(stream) }
    return table
  }
}

import Testing

@testable import PulseBarCore

/// One step of a table of event orders for ``CaptureCore``: an event at an exact time, and the
/// actions it must give, written as ``CaptureCoreScript/token(_:)``s joined by `; ` (the `-v`
/// lines left out).
struct CaptureStep: Sendable, CustomStringConvertible {
  var time: Double
  var event: CaptureEvent
  var expected: String

  init(_ time: Double, _ event: CaptureEvent, _ expected: String) {
    self.time = time
    self.event = event
    self.expected = expected
  }

  var description: String { "t=\(time) \(event)" }
}

/// Runs tables of ``CaptureStep``s through a core and says what differs, step by step.
enum CaptureCoreScript {
  /// A player whose process is 100 (mpv), playing or not.
  static func mpv(playing: Bool = true) -> PlayerAudioIdentity {
    PlayerAudioIdentity(name: "mpv", processID: 100, playing: playing)
  }

  /// A sink input (or node) of process `pid` on `sink`.
  static func input(_ id: UInt32, sink: UInt32?, running: Bool = true, pid: Int32 = 100)
    -> ServerStream
  {
    ServerStream(
      id: id, sink: sink, running: running, processID: pid, binary: pid == 100 ? "mpv" : "paplay")
  }

  /// A PulseAudio core following the default sink under `input.scope = player`; processes are
  /// their own roots (no process tree).
  static func core(named: String? = nil, scope: CaptureScope = .player) -> CaptureCore {
    CaptureCore(
      CaptureConfiguration(
        namedSource: named, scope: scope, sampleRate: 44100, parentOf: { _ in nil }))
  }

  /// A native PipeWire core (its words; a stream on a node follows it to another sink).
  static func nativePipeWire() -> CaptureCore {
    CaptureCore(
      CaptureConfiguration(
        namedSource: nil, scope: .player, sampleRate: 48000, wording: .pipeWire,
        recordingFollowsMoves: true, keepsPausedStreams: false, parentOf: { _ in nil }))
  }

  /// Sink `index` (`a` is 1, `b` is 2) as the server describes it: s16 at 44.1 kHz on
  /// PulseAudio, float at the graph's 48 kHz on PipeWire.
  static func sink(_ name: String, _ index: UInt32, pipeWire: Bool = false) -> CaptureEvent {
    .sinkDescribed(
      SinkDescription(
        index: index, monitorSource: "\(name).monitor", int16: !pipeWire,
        rate: pipeWire ? 48000 : 44100))
  }

  /// The steps of a connection that records sink 1's monitor `a.monitor` (nothing plays
  /// yet) with stream #1, from `start` at 0: on PulseAudio s16 and the onset fragment, on
  /// PipeWire float and one quantum.
  static func connectedOnA(pipeWire: Bool = false) -> [CaptureStep] {
    let format = pipeWire ? "quantum48000 corked" : "onset corked s16"
    return [
      CaptureStep(0, .start, "connect"),
      CaptureStep(0.01, .connected, "server?; status none"),
      CaptureStep(0.02, .serverDescribed(onPipeWire: pipeWire, defaultSink: "a"), "sink? a"),
      CaptureStep(
        0.03, sink("a", 1, pipeWire: pipeWire), "generation a.monitor; open#1 a.monitor \(format)"),
      CaptureStep(0.04, .recordStreamReady(.init(1)), ""),
    ]
  }

  /// Runs `steps` through `core`; every step whose actions differ is an issue naming it.
  static func run(
    _ core: inout CaptureCore, _ steps: [CaptureStep], _ name: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for (index, step) in steps.enumerated() {
      let got = core.handle(step.event, at: step.time).compactMap(token).joined(separator: "; ")
      #expect(
        got == step.expected, "\(name), step \(index) (\(step))", sourceLocation: sourceLocation)
    }
  }

  /// An action in a few words: `open#2 input 7 onset`, `cork#1`, `timer 2.5`, `status
  /// running 'a.monitor'`; `nil` for a `-v` line.
  static func token(_ action: CaptureAction) -> String? {
    switch action {
    case .connect: "connect"
    case .disconnect: "disconnect"
    case .describeServer: "server?"
    case .describeSink(let name): "sink? \(name)"
    case .describeSource(let name): "source? \(name)"
    case .open(let request): open(request)
    case .close(let id): "close\(id)"
    case .cork(let id, let corked): "\(corked ? "cork" : "uncork")\(id)"
    case .setFragment(let id, let size): "\(fragment(size))\(id)"
    case .mix(let ids): (["mix"] + ids.map(\.description)).joined(separator: " ")
    case .startGeneration(let marking, let name): "generation \(name)\(marking ? " switch" : "")"
    case .armTimer(let time): "timer \((time * 1000).rounded() / 1000)"
    case .publish(let status):
      "status \(status.connected ? "" : "offline ")\(status.activity)"
        + (status.sourceName.isEmpty ? "" : " '\(status.sourceName)'")
        + (status.othersPlay ? " others" : "")
    case .log(let line): "log \(line)"
    case .debug: nil
    }
  }

  private static func open(_ request: RecordRequest) -> String {
    var words = ["open\(request.id)"]
    switch request.recording {
    case .source(let name): words.append(name)
    case .serverStream(let id): words.append("input \(id)")
    }
    words.append(fragment(request.fragment))
    if request.corked { words.append("corked") }
    if request.int16 { words.append("s16") }
    if request.pinned { words.append("pinned") }
    return words.joined(separator: " ")
  }

  private static func fragment(_ size: FragmentSize) -> String {
    switch size {
    case .onset: "onset"
    case .steady: "steady"
    case .quantum(let rate): "quantum\(rate)"
    }
  }
}

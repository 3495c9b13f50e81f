import PulseBarCore
import Testing

@testable import PulseBarAudio

/// The PulseAudio source's pure parts: sink-input bookkeeping, fragment sizes and their schedule.
@Suite("PulseAudio bookkeeping")
struct PulseModelTests {
  @Test("the server's streams add up per sink: none, corked, running")
  func sinkInputActivity() {
    var table = ServerStreamTable()
    #expect(table.activity(onSink: 1) == .none)
    table.update(ServerStream(id: 10, sink: 1, running: false))
    table.update(ServerStream(id: 11, sink: 2, running: true))
    #expect(table.activity(onSink: 1) == .corked)
    #expect(table.activity(onSink: 2) == .running)
    table.update(ServerStream(id: 12, sink: 1, running: true))
    #expect(table.activity(onSink: 1) == .running)
    table.update(ServerStream(id: 12, sink: 2, running: true))
    #expect(table.activity(onSink: 1) == .corked)
    table.update(ServerStream(id: 13, sink: nil, running: true))
    #expect(table.activity(onSink: 1) == .corked, "a stream with no known sink plays nowhere")
    table.remove(id: 10)
    #expect(table.activity(onSink: 1) == .none)
    table.removeAll()
    #expect(table.activity(onSink: 2) == .none)
  }

  /// libpulse's subscription events (facility | kind, `pulse/def.h`) and what the core hears.
  static let subscriptionEvents: [(UInt32, CaptureEvent?, describes: Bool)] = [
    (0x02 | 0x00, nil, true),  // a sink input appeared: its info is asked for
    (0x02 | 0x10, nil, true),  // a sink input changed: the same
    (0x02 | 0x20, .streamRemoved(9), false),
    (0x00 | 0x00, .devicesChanged, false),  // a sink appeared
    (0x00 | 0x20, .devicesChanged, false),  // a sink went away
    (0x00 | 0x10, nil, false),  // a sink changed (its volume): nothing to look up
    (0x01 | 0x00, .devicesChanged, false),  // a source appeared (a named one may be it)
    (0x07 | 0x10, .devicesChanged, false),  // the server changed: the default, maybe
    (0x05 | 0x00, nil, false),  // a client: not ours to follow
  ]

  @Test("subscription events become capture events", arguments: subscriptionEvents)
  func subscriptionEvent(raw: UInt32, event: CaptureEvent?, describes: Bool) {
    let translated = PulseLookups.event(raw, index: 9)
    #expect(translated.0 == event && translated.describeSinkInput == describes)
  }

  @Test(
    "fragments: 512 then 3072 frames on PulseAudio; PipeWire's 1024-frame quantum on PipeWire, never less",
    arguments: [(44100, 48000), (44100, 44100), (48000, 48000), (44100, 96000)])
  func fragmentSizes(sampleRate: Int, graphRate: Int) {
    let settings = PulseSource.Settings(
      sourceName: nil, sampleRate: sampleRate, channels: 2, fps: 60)
    #expect(settings.fragmentBytes(bytesPerSample: 4) == 3072 * 8, "whatever the fps")
    let onset = PulseSource.Settings.onsetFragmentFrames
    #expect(settings.fragmentBytes(frames: onset, bytesPerSample: 4) == 512 * 8)
    let bytes = settings.fragmentBytes(bytesPerSample: 4, pipeWireGraphRate: graphRate)
    #expect(
      settings.fragmentBytes(frames: onset, bytesPerSample: 4, pipeWireGraphRate: graphRate)
        == bytes, "no onset fragment on PipeWire")
    // What PipeWire makes of it: the latency in graph frames, rounded down to a power of two.
    let graphFrames = Double(bytes / 8) * Double(graphRate) / Double(sampleRate)
    #expect(graphFrames >= 1024 && graphFrames < 1024 * 1.01, "\(graphFrames) graph frames")
    #expect(
      settings.fragmentBytes(bytesPerSample: 2, pipeWireGraphRate: graphRate) == bytes / 2,
      "s16 fragments hold the same frames")
  }

  @Test("the onset fragment until half a second of audio arrived, then the steady one")
  func fragmentGrowsWhenSteady() {
    // 0.5 s at 44.1 kHz, in 512-frame onset fragments.
    var fragment = RecordFragment(adapts: true, steadyAfterFrames: 22050, corked: false)
    #expect(!fragment.isSteady)
    let asks = (1...44).map { _ in fragment.recorded(frames: 512, streamReady: true) }
    #expect(asks.firstIndex(of: true) == 43, "22016 frames after 43, 22528 after 44")
    #expect(asks.filter { $0 }.count == 1 && fragment.isSteady)
    let again = fragment.recorded(frames: 3072, streamReady: true)
    #expect(!again, "steady stays steady")
  }

  @Test("a stream not ready yet asks for the steady fragment with the next fragment after")
  func fragmentWaitsForReady() {
    var fragment = RecordFragment(adapts: true, steadyAfterFrames: 1000, corked: false)
    let notReady = fragment.recorded(frames: 1024, streamReady: false)
    let ready = fragment.recorded(frames: 512, streamReady: true)
    #expect(!notReady && ready)
  }

  /// A step of a record stream's life: frames that arrived, or the activity.
  enum FragmentStep {
    case frames(Int, asksSteady: Bool)
    case running(Bool, ready: Bool = true, RecordFragment.CorkChange?)
  }

  static let fragmentLives: [(String, adapts: Bool, [FragmentStep])] = [
    (
      "corking takes the onset fragment back; uncorking starts the count again", true,
      [
        .running(false, nil), .running(true, ready: false, nil), .running(true, .uncork),
        .frames(600, asksSteady: false), .running(false, .cork(onset: false)),
        .running(true, .uncork), .frames(600, asksSteady: false),
        .frames(600, asksSteady: true), .running(false, .cork(onset: true)),
        .running(true, .uncork), .frames(999, asksSteady: false), .frames(1, asksSteady: true),
      ]
    ),
    (
      "on PipeWire one fragment throughout: never grows, corks without asking", false,
      [
        .running(true, .uncork), .frames(10_000, asksSteady: false),
        .running(false, .cork(onset: false)),
      ]
    ),
  ]

  @Test("the fragment and the cork through a stream's life", arguments: fragmentLives)
  func fragmentLife(_ name: String, adapts: Bool, _ steps: [FragmentStep]) {
    var fragment = RecordFragment(adapts: adapts, steadyAfterFrames: 1000, corked: true)
    for (index, step) in steps.enumerated() {
      switch step {
      case .frames(let frames, let asksSteady):
        let asked = fragment.recorded(frames: frames, streamReady: true)
        #expect(asked == asksSteady, "step \(index) of \(name)")
      case .running(let running, let ready, let change):
        let got = fragment.activityChanged(running: running, streamReady: ready)
        #expect(got == change, "step \(index) of \(name): \(String(describing: got))")
      }
    }
  }
}

/// The steady PulseAudio fragment follows the rate the engine analyses at.
@Suite struct SteadyFragmentTests {
  typealias Settings = PulseSource.Settings

  @Test func threeFramesOfAudioWithinBounds() {
    #expect(Settings.steadyFrames(sampleRate: 44100, analysisRate: 60) == 3072, "as before at 60")
    #expect(Settings.steadyFrames(sampleRate: 44100, analysisRate: 30) == 4410)
    #expect(Settings.steadyFrames(sampleRate: 48000, analysisRate: 30) == 4800)
    #expect(
      Settings.steadyFrames(sampleRate: 44100, analysisRate: 10) == 4410,
      "a tenth of a second at most")
    #expect(Settings.steadyFrames(sampleRate: 44100, analysisRate: 240) == 3072)
    var settings = Settings(sourceName: nil, sampleRate: 44100, channels: 1, fps: 60, server: nil)
    settings.analysisRate = 30
    #expect(settings.fragmentBytes(bytesPerSample: 2) == 4410 * 2)
    #expect(settings.fragmentBytes(bytesPerSample: 2, pipeWireGraphRate: 48000) == 941 * 2)
  }
}

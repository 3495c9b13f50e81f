import PulseBarCore
import Testing

@testable import PulseBarAudio

/// The PulseAudio source's pure parts: sink-input bookkeeping, fragment sizes.
@Suite("PulseAudio bookkeeping")
struct PulseModelTests {
  @Test("sink inputs add up per sink: none, corked, running")
  func sinkInputActivity() {
    var table = SinkInputTable()
    #expect(table.activity(onSink: 1) == .none)
    table.update(index: 10, sink: 1, corked: true)
    table.update(index: 11, sink: 2, corked: false)
    #expect(table.activity(onSink: 1) == .corked)
    #expect(table.activity(onSink: 2) == .running)
    table.update(index: 12, sink: 1, corked: false)
    #expect(table.activity(onSink: 1) == .running)
    table.update(index: 12, sink: 2, corked: false)
    #expect(table.activity(onSink: 1) == .corked)
    table.remove(index: 10)
    #expect(table.activity(onSink: 1) == .none)
    table.removeAll()
    #expect(table.activity(onSink: 2) == .none)
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
}

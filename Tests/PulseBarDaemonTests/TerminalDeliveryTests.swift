import Glibc
import PulseBarCore
import PulseBarSystem
import Testing

@testable import PulseBarDaemon

/// The `--foreground` delivery: the pipeline's frame drawn into the view, with figures.
@Suite struct TerminalDeliveryTests {
  /// A delivery drawing into a 24 × 80 view on a pipe, and a pipeline serving it.
  private struct Fixture {
    let pipe: TerminalPipe
    let view: TerminalView
    let delivery: TerminalDelivery
    let pipeline: FramePipeline

    init() throws {
      let configuration = Configuration()
      pipe = try TerminalPipe()
      view = TerminalView(
        configuration: configuration, output: FileDescriptor(rawValue: pipe.write),
        input: FileDescriptor(rawValue: -1), size: (24, 80))
      delivery = TerminalDelivery(view: view, configuration: configuration)
      pipeline = FramePipeline(configuration: configuration, sampleRate: 44100)
      for key in delivery.wantedKeys { try pipeline.addConsumer(key) }
    }
  }

  @Test func drawsThePipelinesFrameWithItsStatus() throws {
    let fixture = try Fixture()
    let (pipe, view, delivery, pipeline) =
      (fixture.pipe, fixture.view, fixture.delivery, fixture.pipeline)
    delivery.socketFigures = { (clients: 4, dropped: 9) }

    let hop = pipeline.hopFrames
    let audio = (0..<hop).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 44100)) }
    audio.withUnsafeBufferPointer { pipeline.advance(audio: $0, activity: .running) }
    let info = FrameInfo(time: pipeline.time, source: "file:a.wav", connected: true)
    #expect(delivery.deliver(pipeline: pipeline, info: info))

    #expect(pipe.drain().count > 500)
    let status = view.text(ofRow: 23)
    for part in ["state playing", "clients 4", "dropped 9", "onset 16.7 ms"] {
      #expect(status.contains(part), "\(part) in \(status)")
    }
    #expect(view.text(ofRow: 0).contains("source file:a.wav"))
  }

  @Test func asksForAFrameAtStartAndOnRedraw() throws {
    let fixture = try Fixture()
    let (view, delivery, pipeline) = (fixture.view, fixture.delivery, fixture.pipeline)
    let info = FrameInfo(time: 0, source: "test", connected: true)
    #expect(isReadable(delivery.wakeDescriptor))  // the first frame, before any audio
    #expect(delivery.deliver(pipeline: pipeline, info: info))
    #expect(!isReadable(delivery.wakeDescriptor))
    #expect(view.text(ofRow: 23).contains("state stopped"))
    delivery.requestRedraw()
    #expect(isReadable(delivery.wakeDescriptor))
    #expect(delivery.deliver(pipeline: pipeline, info: info))
    #expect(!isReadable(delivery.wakeDescriptor))
  }

  private func isReadable(_ descriptor: FileDescriptor?) -> Bool {
    descriptor?.wait(for: .readable, timeoutMilliseconds: 0).contains(.readable) ?? false
  }

  @Test func meterCountsFramesAndRefreshesEachSecond() {
    var meter = TerminalMeter()
    meter.frame(now: 10)
    for frame in 1...59 { meter.frame(now: 10 + Double(frame) / 60) }
    #expect(meter.fps == 0)  // the first window is not complete yet
    meter.frame(now: 11)
    #expect(meter.fps == 60)
    #expect(meter.cpuPercent >= 0)
  }
}

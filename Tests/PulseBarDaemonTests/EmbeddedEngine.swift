import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarPlayers
import PulseBarSystem

@testable import PulseBarDaemon

/// The real ``Engine`` loop on manual time, as swift-nio's `EmbeddedEventLoop` runs a channel:
/// a test schedules what the world does (audio arriving, a player change, a status change)
/// at exact times and moves the time with ``advance(to:)``; every wait of the loop returns at
/// once (``ManualEngineClock``). The frames the loop made are in ``frames``.
final class EmbeddedEngine {
  /// A frame the loop delivered: when, and what made it.
  struct Frame: Equatable, CustomStringConvertible {
    enum Kind: Equatable {
      /// Read `hops` hops of audio.
      case audio(hops: Int)
      /// Moved the scene on by `elapsed` seconds without audio.
      case tick(elapsed: Double)
      /// The same audio time drawn again (a player change, a position, a delivery's request).
      case again
    }
    var time: Double
    var kind: Kind
    var description: String { "\(time): \(kind)" }
  }

  /// Records what each frame took from the buffer and added to the audio time.
  private final class FrameLog: FrameDelivery {
    let wantedKeys = [ConsumerKey(format: .json, bars: 8)]
    let keysVersion: UInt64 = 0
    let clock: ManualEngineClock
    let buffer: CaptureBuffer
    /// Samples written to the buffer so far.
    var written = 0
    private(set) var frames: [Frame] = []
    private(set) var audioTime = 0.0
    private var previous: (time: Double, read: Int, count: UInt64)?

    init(clock: ManualEngineClock, buffer: CaptureBuffer) {
      self.clock = clock
      self.buffer = buffer
    }

    func deliver(pipeline: FramePipeline, info: FrameInfo) -> Bool {
      let read = written - buffer.availableSamples
      audioTime = info.time
      defer { previous = (info.time, read, pipeline.frameCount) }
      guard let previous else { return true }
      let hopSamples = pipeline.hopFrames * pipeline.analyzer.channels
      let kind: Frame.Kind =
        if read > previous.read {
          .audio(hops: (read - previous.read) / hopSamples)
        } else if pipeline.frameCount == previous.count {
          .again
        } else {
          .tick(elapsed: info.time - previous.time)
        }
      frames.append(Frame(time: clock.time, kind: kind))
      return true
    }
  }

  let clock: ManualEngineClock
  let buffer: CaptureBuffer
  let playerFeed = PlayerFeed(nil)
  let engine: Engine<ManualEngineClock>
  private let log: FrameLog
  /// The frames made after the start-up frame.
  var frames: [Frame] { log.frames }
  /// The audio time of the last frame (json's `time`).
  var audioTime: Double { log.audioTime }
  /// True once the loop ended (the end of the stream, a delivery refused).
  private(set) var ended = false
  /// Samples of one hop (one frame's audio at the configured rate) on all channels.
  let hopSamples: Int
  private let channels: Int

  /// An engine on a buffer of `channels` at `sampleRate`, its audio playing, started at
  /// `start`; `configuration` gives the pipeline's frame rate.
  init(
    configuration: Configuration = Configuration(), sampleRate: Int = 48000, channels: Int = 1,
    start: Double = 0, deliveries: [FrameDelivery] = [], capture: CaptureSource? = nil,
    playerSettings: PlayerSettings? = nil
  ) {
    clock = ManualEngineClock(at: start)
    hopSamples = max(1, sampleRate / configuration.fps) * channels
    self.channels = channels
    buffer = CaptureBuffer(sampleRate: sampleRate, channels: channels, fps: configuration.fps)
    buffer.updateStatus {
      $0.connected = true
      $0.activity = .running
      $0.sourceName = "embedded"
    }
    log = FrameLog(clock: clock, buffer: buffer)
    let pipeline = FramePipeline(configuration: configuration, sampleRate: sampleRate)
    engine = Engine(
      pipeline: pipeline, buffer: buffer, capture: capture, deliveries: [log] + deliveries,
      playerFeed: playerFeed, playerSettings: playerSettings, clock: clock)
    engine.start()
  }

  /// Writes `hops` hops of a 440 Hz tone when the time reaches `time`.
  func audio(hops: Int, at time: Double) { audio(samples: hops * hopSamples, at: time) }

  /// Writes `count` samples of a 440 Hz tone when the time reaches `time`.
  func audio(samples count: Int, at time: Double) {
    // Not `self`: the clock holds its tasks, and the engine its clock.
    clock.schedule(at: time) { [buffer, log, channels] in
      let step = 2 * Float.pi * 440 / Float(buffer.sampleRate)
      let tone = (0..<count).map { (index: Int) -> Float in
        0.5 * sinf(step * Float(log.written + index))
      }
      tone.withUnsafeBufferPointer { buffer.write($0, channels: channels) }
      log.written += count
    }
  }

  /// Runs `task` when the time reaches `time`.
  func schedule(at time: Double, _ task: @escaping () -> Void) {
    clock.schedule(at: time, task)
  }

  /// Runs the loop until its next wake-up is after `time`, and leaves the time at `time`.
  func advance(to time: Double) {
    clock.limit = max(clock.limit, time)
    while !ended {
      switch engine.turn() {
      case .continues: continue
      case .suspended: return
      case .ended: ended = true
      }
    }
  }

  /// Moves the time on by `seconds` (see ``advance(to:)``).
  func advance(by seconds: Double) { advance(to: clock.time + seconds) }
}

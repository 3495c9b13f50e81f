import PulseBarAudio
import PulseBarCore
import PulseBarPlayers
import PulseBarSystem
import Testing

@testable import PulseBarDaemon

/// The engine's real loop on manual time (``EmbeddedEngine``): pacing, ticks and events with
/// exact times, through the capture buffer, the pipeline and a delivery, as in the daemon.
@Suite struct EngineTests {
  typealias Frame = EmbeddedEngine.Frame

  /// An engine at 50 frames a second (a hop is 0.02 s), started at `start`.
  static func engine(start: Double = -1) -> EmbeddedEngine {
    var configuration = Configuration()
    configuration.fps = 50
    return EmbeddedEngine(configuration: configuration, start: start)
  }

  static func hops(_ frames: some Collection<Frame>) -> [Int] {
    frames.map { if case .audio(let hops) = $0.kind { hops } else { 0 } }
  }

  static func isAudio(_ frame: Frame) -> Bool {
    if case .audio = frame.kind { true } else { false }
  }

  static func isTick(_ frame: Frame) -> Bool {
    if case .tick = frame.kind { true } else { false }
  }

  @Test("a chunk of queued hops is drawn one a frame, spaced over the period")
  func chunkIsSpacedOverThePeriod() {
    let engine = Self.engine()
    for step in 0..<10 { engine.audio(hops: 4, at: Double(step) * 0.08) }
    engine.advance(to: 1)
    let audio = engine.frames.filter(Self.isAudio)
    // The first chunk comes before its interval is known: all but one of it joins one frame.
    #expect(Self.hops(audio.prefix(2)) == [3, 1], "\(engine.frames)")
    // From the second chunk on, each frame takes one hop: 4 a chunk, the first at arrival.
    let steady = audio.dropFirst(2)
    #expect(Self.hops(steady) == Array(repeating: 1, count: 36))
    #expect(steady.first?.time == 0.08)
    let gaps = zip(steady.dropFirst(), steady).map { $0.time - $1.time }
    for (index, gap) in gaps.enumerated() where (index + 1) % 4 != 0 {
      // Within a chunk: 0.9 period apart, as the wait's whole milliseconds (rounded up) allow.
      #expect(gap >= 0.018 - 1e-9 && gap <= 0.019 + 1e-9, "gap \(index): \(gap)")
    }
  }

  @Test("audio queued beyond a chunk after a stall joins one frame")
  func lateBurstJoinsOneFrame() {
    let engine = Self.engine()
    // Chunks of 4 hops every 0.08 s, then nothing for 0.32 s, then the 16 hops held back.
    for step in 0..<3 { engine.audio(hops: 4, at: Double(step) * 0.08) }
    engine.audio(hops: 16, at: 0.48)
    engine.advance(to: 1)
    let burst = engine.frames.first { $0.time == 0.48 && Self.isAudio($0) }
    // One chunk's worth (4 hops) stays queued to be spaced; the other 12 join this frame.
    #expect(burst?.kind == .audio(hops: 12), "\(engine.frames)")
    let after = engine.frames.filter { $0.time > 0.48 && Self.isAudio($0) }
    #expect(Self.hops(after) == [1, 1, 1, 1])
  }

  @Test("without audio the scene ticks only once audio is late, and sleeps once it rests")
  func ticksOnlyWhileMovingAndLate() throws {
    // Chunks every 0.08 s until 0.16: from the second, audio is late one chunk interval and
    // two periods after the last arrival: at 0.16 + 0.08 + 2 × 0.02 = 0.28.
    let engine = Self.engine()
    for step in 0..<3 { engine.audio(hops: 4, at: Double(step) * 0.08) }
    engine.advance(to: 0.5)
    let frames = engine.frames
    let flowing = frames.filter { $0.time >= 0.08 && $0.time < 0.28 - 1e-9 }
    #expect(flowing.allSatisfy(Self.isAudio), "no tick while audio flows: \(flowing)")
    let ticks = frames.filter { $0.time >= 0.08 && Self.isTick($0) }
    let first = try #require(ticks.first)
    #expect(first.time >= 0.28 - 1e-9 && first.time < 0.281, "first tick at \(first.time)")
    // The first tick moves the scene by the time since the last audio frame.
    let lastAudio = try #require(frames.last(where: Self.isAudio))
    guard case .tick(let elapsed) = first.kind else { return }
    #expect(abs(elapsed - (first.time - lastAudio.time)) < 1e-9)
    // Then one a period, as the wait's whole milliseconds (rounded up) allow.
    let gaps = zip(ticks.dropFirst(), ticks).map { $0.time - $1.time }
    #expect(gaps.allSatisfy { $0 >= 0.02 - 1e-9 && $0 <= 0.021 + 1e-9 }, "\(gaps)")
    // Once the scene is at rest, the loop sleeps with no timeout.
    engine.advance(to: 60)
    let last = try #require(engine.frames.last)
    #expect(engine.clock.lastTimeout == -1, "last frame \(last)")
    engine.advance(to: 120)
    #expect(engine.frames.last == last, "no frame while at rest")
  }

  /// A delivery woken by its descriptor that wants no frame (a client's line that changed
  /// nothing).
  final class WokenDelivery: FrameDelivery {
    let wantedKeys: [ConsumerKey] = []
    let keysVersion: UInt64 = 0
    let wake = WakeSignal()
    var wakeDescriptor: FileDescriptor? { wake.descriptor }
    private(set) var serviced: [Double] = []

    func deliver(pipeline: FramePipeline, info: FrameInfo) -> Bool { true }

    func service(now: Double) -> Bool {
      wake.drain()
      serviced.append(now)
      return false
    }
  }

  @Test("a descriptor that wakes the loop while audio is late makes no tick; a timeout does")
  func onlyATimeoutTicks() throws {
    var configuration = Configuration()
    configuration.fps = 50
    let delivery = WokenDelivery()
    let engine = EmbeddedEngine(configuration: configuration, start: -1, deliveries: [delivery])
    for step in 0..<3 { engine.audio(hops: 4, at: Double(step) * 0.08) }
    // Between the first tick (0.28) and the next (0.30).
    engine.schedule(at: 0.29) { delivery.wake.signal() }
    engine.advance(to: 0.35)
    #expect(delivery.serviced == [0.29])
    let ticks = engine.frames.filter(Self.isTick).map(\.time)
    #expect(!ticks.isEmpty)
    #expect(!ticks.contains(0.29), "\(ticks)")
  }

  /// 2 s of audio arrive in 10 ms chunks (half a hop) while the player's track changes every
  /// 20 ms and the capture's status every 30 ms: json `time` ends at the audio's 2 s, not later
  /// (events made frames that added wall-clock time while audio flowed), and the player
  /// changes made at most one frame a period besides the audio's (a frame for every change
  /// would be 200).
  @Test("player and status events while audio flows make no ticks: the time is seconds of audio")
  func eventsWhileAudioFlowsMakeNoTicks() {
    // Started as the audio starts: a change before any audio is a tick (the scene moves on).
    let engine = Self.engine(start: 0)
    for step in 0..<200 {
      let time = Double(step) / 100
      engine.audio(samples: engine.hopSamples / 2, at: time)
      engine.schedule(at: time) { [players = engine.playerFeed, buffer = engine.buffer] in
        if step % 2 == 0 {
          players.post(NowPlaying(player: "mpv", status: .playing, title: "Track \(step)"))
        }
        if step % 3 == 0 { buffer.updateStatus { $0.sourceName = step % 6 == 0 ? "b" : "a" } }
      }
    }
    engine.schedule(at: 2) { [buffer = engine.buffer] in
      buffer.updateStatus { $0.endOfStream = true }
    }
    engine.advance(to: 3)
    #expect(engine.ended, "the end of the stream ends the loop")
    #expect(abs(engine.audioTime - 2) < 1e-9, "time \(engine.audioTime) after 2 s of audio")
    #expect(engine.frames.filter(Self.isTick).isEmpty, "\(engine.frames)")
    #expect(Self.hops(engine.frames).reduce(0, +) == 100)
    #expect(engine.frames.count <= 150, "\(engine.frames.count) frames for 100 of audio")
  }
}

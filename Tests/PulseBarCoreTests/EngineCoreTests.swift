import Testing

@testable import PulseBarCore

/// The engine's decisions (``EngineCore``) with exact times, driven the way the engine drives
/// them: it wakes when a chunk arrives and when the sleep timeout (whole milliseconds, rounded
/// up) runs out.
@Suite struct EngineCoreTests {
  /// A frame the drive made: when, and what.
  typealias Frame = (time: Double, action: EngineCore.FrameAction)

  /// `count` chunks of `samples` samples every `interval` s from `start`.
  static func chunks(samples: Int, every interval: Double, count: Int, from start: Double = 0)
    -> [(time: Double, samples: Int)]
  {
    (0..<count).map { (start + Double($0) * interval, samples) }
  }

  /// Drives `core` through `chunks` until `end`, a hop being `hopSamples` samples: `needsTicks`
  /// is what the scene says (it animates or still plays); `event` is called at every wake-up
  /// and may post a player change or a status change (returning its frame). Returns the
  /// frames made.
  static func drive(
    _ core: inout EngineCore, chunks: [(time: Double, samples: Int)], hopSamples: Int = 1,
    until end: Double, needsTicks: Bool = false,
    event: (inout EngineCore, Double) -> EngineCore.FrameAction = { _, _ in .none }
  ) -> [Frame] {
    var frames: [Frame] = []
    var queued = 0
    var next = 0
    var now = chunks.first?.time ?? 0
    while now <= end {
      var arrived = false
      while next < chunks.count && chunks[next].time <= now + 1e-9 {
        queued += chunks[next].samples
        next += 1
        arrived = true
      }
      let eventFrame = event(&core, now)
      if eventFrame != .none { frames.append((now, eventFrame)) }
      core.noteQueued(samples: queued, at: now)
      var wake = EngineCore.Wake(queuedHops: queued / hopSamples, timedOut: !arrived)
      wake.playerChanged = core.takesPlayerChange(at: now, queuedHops: wake.queuedHops)
      let action = core.frame(wake, at: now)
      if case .makeAudioFrame(let hops) = action {
        queued -= hops * hopSamples
        core.audioRead(leaving: queued)
      }
      if action != .none { frames.append((now, action)) }
      let timeout = core.sleepTimeout(
        at: now, queuedHops: queued / hopSamples, needsTicks: needsTicks, positionDue: nil,
        deliveryDeadline: nil)
      var wakeAt = next < chunks.count ? chunks[next].time : Double.infinity
      if timeout >= 0 { wakeAt = min(wakeAt, now + Double(timeout) / 1000) }
      guard wakeAt.isFinite else { break }
      now = wakeAt
    }
    return frames
  }

  /// The hops each frame took (0 for a frame without audio).
  static func hops(_ frames: some Collection<Frame>) -> [Int] {
    frames.map {
      if case .makeAudioFrame(let hops) = $0.action { hops } else { 0 }
    }
  }

  static func isAudio(_ frame: Frame) -> Bool {
    if case .makeAudioFrame = frame.action { true } else { false }
  }

  static func isTick(_ frame: Frame) -> Bool {
    if case .tick = frame.action { true } else { false }
  }

  /// The wait's timeout with nothing but the core's own state.
  static func timeout(_ core: EngineCore, at now: Double, queuedHops: Int = 0) -> Int32 {
    core.sleepTimeout(
      at: now, queuedHops: queuedHops, needsTicks: false, positionDue: nil, deliveryDeadline: nil)
  }

  @Test("a chunk of queued hops is drawn one a frame, spaced over the period")
  func chunkIsSpacedOverThePeriod() {
    var core = EngineCore(fps: 50)
    core.started(at: -1)
    let frames = Self.drive(
      &core, chunks: Self.chunks(samples: 4, every: 0.08, count: 10), until: 1)
    // The first chunk comes before its interval is known: all but one of it joins one frame.
    #expect(Self.hops(frames.prefix(2)) == [3, 1])
    // From the second chunk on, each frame takes one hop: 4 a chunk, the first at arrival.
    let steady = frames.dropFirst(2)
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
    var core = EngineCore(fps: 50)
    core.started(at: -1)
    // Chunks of 4 hops every 0.08 s, then nothing for 0.32 s, then the 16 hops held back.
    let chunks = Self.chunks(samples: 4, every: 0.08, count: 3) + [(0.48, 16)]
    let frames = Self.drive(&core, chunks: chunks, until: 1)
    let burst = frames.first { $0.time == 0.48 }
    // One chunk's worth (4 hops) stays queued to be spaced; the other 12 join this frame.
    #expect(burst?.action == .makeAudioFrame(hops: 12))
    #expect(Self.hops(frames.filter { $0.time > 0.48 }) == [1, 1, 1, 1])
  }

  @Test("without audio it ticks only while the scene moves, and only once audio is late")
  func ticksOnlyWhileMovingAndLate() throws {
    // Chunks every 0.08 s until 0.16: from the second, audio is late one chunk interval and
    // two periods after the last arrival: at 0.16 + 0.08 + 2 × 0.02 = 0.28.
    let chunks = Self.chunks(samples: 4, every: 0.08, count: 3)
    var still = EngineCore(fps: 50)
    still.started(at: -1)
    let stillFrames = Self.drive(&still, chunks: chunks, until: 2)
    #expect(stillFrames.allSatisfy(Self.isAudio))
    #expect(Self.timeout(still, at: 2) == -1, "it sleeps with no timeout")

    var moving = EngineCore(fps: 50)
    moving.started(at: -1)
    let frames = Self.drive(&moving, chunks: chunks, until: 0.5, needsTicks: true)
    let flowing = frames.filter { $0.time >= 0.08 && $0.time < 0.28 - 1e-9 }
    #expect(flowing.allSatisfy(Self.isAudio), "no tick while audio flows: \(flowing)")
    let ticks = frames.filter { $0.time >= 0.08 && Self.isTick($0) }
    let first = try #require(ticks.first)
    #expect(first.time >= 0.28 - 1e-9 && first.time < 0.281, "first tick at \(first.time)")
    // The first tick moves the scene by the time since the last audio frame.
    let lastAudio = try #require(frames.last(where: Self.isAudio))
    #expect(first.action == .tick(elapsed: first.time - lastAudio.time))
    // Then one a period, as the wait's whole milliseconds (rounded up) allow.
    let gaps = zip(ticks.dropFirst(), ticks).map { $0.time - $1.time }
    #expect(gaps.allSatisfy { $0 >= 0.02 - 1e-9 && $0 <= 0.021 + 1e-9 }, "\(gaps)")
  }

  @Test("a wait that runs out makes a tick only once audio is late")
  func timedOutWaitTicksOnlyWhenLate() {
    var core = EngineCore(fps: 50)
    core.started(at: 0)
    core.noteQueued(samples: 1, at: 0)
    let first = core.frame(.init(queuedHops: 1), at: 0)
    #expect(first == .makeAudioFrame(hops: 1))
    core.audioRead(leaving: 0)
    // Late at 0 + 0 (no chunk interval yet) + 2 × 0.02.
    let early = core.frame(.init(queuedHops: 0, timedOut: true), at: 0.03)
    #expect(early == .none)
    let late = core.frame(.init(queuedHops: 0, timedOut: true), at: 0.045)
    #expect(late == .tick(elapsed: 0.045))
  }

  @Test("a waiting player change is taken at the next due frame, not before")
  func playerChangeTakenAtNextDueFrame() {
    // 64 frames a second: a period of 15.625 ms, exact in binary.
    var core = EngineCore(fps: 64)
    core.started(at: 0)
    core.noteQueued(samples: 4, at: 1)
    let chunk = core.frame(.init(queuedHops: 4), at: 1)
    #expect(chunk == .makeAudioFrame(hops: 3))
    core.audioRead(leaving: 1)
    // Signalled 5 ms after a frame, with a hop queued: it waits for that hop's frame, due
    // 0.9 period (14.0625 ms) after the last, 0.5 ms early allowed.
    core.playerChangeSignalled()
    let atSignal = core.takesPlayerChange(at: 1.005, queuedHops: 1)
    #expect(!atSignal)
    #expect(core.playerChangePending)
    #expect(Self.timeout(core, at: 1.005, queuedHops: 1) == 10)
    let beforeHop = core.takesPlayerChange(at: 1.013, queuedHops: 1)
    #expect(!beforeHop)
    let atHop = core.takesPlayerChange(at: 1.015, queuedHops: 1)
    #expect(atHop)
    #expect(!core.playerChangePending)
    let hopFrame = core.frame(.init(queuedHops: 1, playerChanged: true), at: 1.015)
    #expect(hopFrame == .makeAudioFrame(hops: 1))
    core.audioRead(leaving: 0)
    // Signalled with nothing queued: a period after the last frame (1.030625), rendered again
    // as audio is not late yet (until 1.03125), so the time stays seconds of audio.
    core.playerChangeSignalled()
    #expect(Self.timeout(core, at: 1.02) == 11)
    let beforePeriod = core.takesPlayerChange(at: 1.030, queuedHops: 0)
    #expect(!beforePeriod)
    let afterPeriod = core.takesPlayerChange(at: 1.031, queuedHops: 0)
    #expect(afterPeriod)
    let again = core.frame(.init(queuedHops: 0, playerChanged: true), at: 1.031)
    #expect(again == .renderAgain)
    #expect(core.lastRender == 1.031)
    // Long after the audio stopped, a change is a tick.
    core.playerChangeSignalled()
    let later = core.takesPlayerChange(at: 3, queuedHops: 0)
    #expect(later)
    let tick = core.frame(.init(queuedHops: 0, playerChanged: true), at: 3)
    #expect(tick == .tick(elapsed: 0.25))
  }

  @Test("a frame for the player's position is made when it is due")
  func positionFrameDue() {
    var core = EngineCore(fps: 50)
    core.started(at: 4)
    #expect(
      core.sleepTimeout(
        at: 4.5, queuedHops: 0, needsTicks: false, positionDue: 5, deliveryDeadline: nil) == 500)
    let before = core.frame(.init(queuedHops: 0, positionDue: 5), at: 4.999)
    #expect(before == .none)
    let due = core.frame(.init(queuedHops: 0, positionDue: 5), at: 5)
    #expect(due == .renderAgain)
    #expect(core.lastRender == 5)
    // A delivery that wants the frame again is served the same way.
    let delivery = core.frame(.init(queuedHops: 0, deliveryWantsFrame: true), at: 5.1)
    #expect(delivery == .renderAgain)
    // With audio late, a wait that ran out (for the position) ticks: the scene moves on too.
    let timedOut = core.frame(.init(queuedHops: 0, timedOut: true, positionDue: 6), at: 6)
    #expect(timedOut == .tick(elapsed: 0.25))
  }

  @Test("player and status events while audio flows make no ticks: the time is seconds of audio")
  func eventsWhileAudioFlowsMakeNoTicks() {
    var core = EngineCore(fps: 50)
    core.started(at: -1)
    // 2 s of audio in 10 ms chunks, half a hop each; a player change every 20 ms and a status
    // change every 30 ms.
    let chunks = Self.chunks(samples: 1, every: 0.01, count: 200)
    var lastEvent = 0  // from the first chunk on
    let frames = Self.drive(
      &core, chunks: chunks, hopSamples: 2, until: 2.5, needsTicks: true
    ) { core, now in
      let step = Int((now * 100).rounded())
      guard abs(now * 100 - Double(step)) < 1e-6, step > lastEvent, step < 200 else {
        return .none
      }
      lastEvent = step
      if step % 2 == 0 { core.playerChangeSignalled() }
      return step % 3 == 0 ? core.statusChanged(newStream: false, at: now) : .none
    }
    let ticks = frames.filter(Self.isTick)
    #expect(ticks.allSatisfy { $0.time > 1.99 }, "ticks while audio flowed: \(ticks)")
    #expect(Self.hops(frames).reduce(0, +) == 100)
    // 100 player changes: at most one frame a period for them, besides the audio's.
    let flowing = frames.filter { $0.time <= 1.99 }
    #expect(flowing.count <= 150, "\(flowing.count) frames")
  }

  @Test("the consumers' rate changes the pacing; a reload resets it")
  func consumerRateChanges() {
    var core = EngineCore(fps: 60)
    let slower = core.frameRate(wanted: 30, current: 60, force: false)
    #expect(slower == 30)
    #expect(core.pacer.period == 1.0 / 30)
    let same = core.frameRate(wanted: 30, current: 30, force: false)
    #expect(same == nil)
    let forced = core.frameRate(wanted: 30, current: 30, force: true)
    #expect(forced == 30)
    core.reloaded(fps: 50)
    #expect(core.pacer.period == 1.0 / 50)
  }

  @Test("the wait ends by the earliest of a frame and a delivery's deadline")
  func waitEndsByDeliveryDeadline() {
    var core = EngineCore(fps: 50)
    core.started(at: 10)
    func timeout(_ deadline: Double?, needsTicks: Bool = false) -> Int32 {
      core.sleepTimeout(
        at: 10, queuedHops: 0, needsTicks: needsTicks, positionDue: nil,
        deliveryDeadline: deadline)
    }
    #expect(timeout(nil) == -1)
    #expect(timeout(10.0025) == 3)
    #expect(timeout(9.5) == 0)
    #expect(timeout(100) == 60_000)
    // Ticking (audio is late from the start): a period after the last frame comes first.
    #expect(timeout(10.1, needsTicks: true) == 20)
  }

  @Test("an audio frame that finds the buffer emptied is no frame: the decision is made again")
  func failedAudioFrameIsUndone() {
    var core = EngineCore(fps: 50)
    core.started(at: 0)
    core.noteQueued(samples: 2, at: 1)
    let wake = EngineCore.Wake(queuedHops: 2, playerChanged: true)
    let audio = core.frame(wake, at: 1)
    #expect(audio == .makeAudioFrame(hops: 1))
    let instead = core.audioFrameFailed(wake, at: 1)
    #expect(instead == .renderAgain)
    #expect(core.pacer.lastFrame == 0)
  }
}

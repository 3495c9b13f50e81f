import Testing

@testable import PulseBarCore

/// The engine's decisions (``EngineCore``) with exact times, one call at a time. The real loop
/// around them runs on manual time in PulseBarDaemonTests' `EngineTests` (`EmbeddedEngine`).
@Suite struct EngineCoreTests {
  /// The wait's timeout with nothing but the core's own state.
  static func timeout(_ core: EngineCore, at now: Double, queuedHops: Int = 0) -> Int32 {
    core.sleepTimeout(
      at: now, queuedHops: queuedHops, needsTicks: false, positionDue: nil, deliveryDeadline: nil)
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
    // A reload forces the rate its new pipeline's consumers want: the pacer is set once.
    let reloaded = core.frameRate(wanted: 50, current: 50, force: true)
    #expect(reloaded == 50)
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

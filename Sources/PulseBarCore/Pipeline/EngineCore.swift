/// The live loop's decisions without its I/O: which frame a wake-up makes (from queued audio,
/// a tick without audio, the same scene rendered again, or none), when a waiting player change
/// is taken, how long the loop may then sleep, and the rate it analyses at.
///
/// ``FramePacer`` spaces the frames a chunk of audio holds; this type decides everything
/// around it. When audio stops arriving, frames are ticked on the wall clock only while the
/// scene still moves (it animates, or still says `playing`, to reach the silence timeout), and
/// only once the audio is late; an event (a status change, a resize, a reload) or a player
/// change shows in the next audio frame while audio flows, so the time stays seconds of audio.
/// Player changes are taken at most once a period, when a frame is due.
///
/// A value type driven with explicit monotonic seconds and what one wake-up found: it returns
/// what to do, and the engine does it (reads the buffer, advances the pipeline, renders,
/// delivers). So the rules are tested with exact times, as ``FramePacer``'s are.
package struct EngineCore: Sendable {
  /// The frame a wake-up makes.
  package enum FrameAction: Equatable, Sendable {
    /// No frame.
    case none
    /// The next frame from `hops` queued hops of audio (more than one: a late burst joins it).
    case makeAudioFrame(hops: Int)
    /// A frame without audio that moves the scene on by `elapsed` wall-clock seconds.
    case tick(elapsed: Double)
    /// The same scene rendered again (a new track between two chunks, new consumers, the
    /// player's position).
    case renderAgain
  }

  /// What a wake-up found, besides the time.
  package struct Wake: Sendable {
    /// Whole hops of audio queued in the capture buffer.
    package var queuedHops: Int
    /// A player change was taken in this wake-up (``takesPlayerChange(at:queuedHops:)``) and
    /// changed what the pipeline shows.
    package var playerChanged: Bool
    /// A delivery wants the current frame again (new consumers want their first line).
    package var deliveryWantsFrame: Bool
    /// The wait ran out its timeout with nothing ready.
    package var timedOut: Bool
    /// When a line next changes for the player's position alone
    /// (`FramePipeline.nextPositionChange(after: lastRender)`), if a line shows it.
    package var positionDue: Double?

    package init(
      queuedHops: Int, playerChanged: Bool = false, deliveryWantsFrame: Bool = false,
      timedOut: Bool = false, positionDue: Double? = nil
    ) {
      self.queuedHops = queuedHops
      self.playerChanged = playerChanged
      self.deliveryWantsFrame = deliveryWantsFrame
      self.timedOut = timedOut
      self.positionDue = positionDue
    }
  }

  /// The longest tick: a frame without audio moves the scene on by at most this.
  package static let longestTick = 0.25

  /// Spaces the frames of a chunk; knows when missing audio is late and when the last frame
  /// was made.
  package private(set) var pacer: FramePacer
  /// The player feed signalled a change that is not taken yet.
  package private(set) var playerChangePending = false
  /// When the last frame was rendered, the same scene rendered again included: the clock a
  /// player's position is extrapolated to (``FrameInfo/clock``).
  package private(set) var lastRender = 0.0
  /// Samples left in the buffer after the last read: more at a wake-up means audio arrived.
  private var samplesAfterRead = 0
  /// The pacer and render time before the last audio frame, for a read that found nothing.
  private var beforeAudioFrame: (pacer: FramePacer, lastRender: Double)?

  package init(fps: Int) {
    pacer = FramePacer(fps: fps)
  }

  // MARK: - Frames

  /// The start-up frame at `now`: shown at once, whatever the audio does.
  package mutating func started(at now: Double) {
    pacer.frameMade(at: now, withAudio: false)
    lastRender = now
  }

  /// `samples` are queued at `now`: more than the last read left means audio arrived, and the
  /// pacer learns the chunk interval from it.
  package mutating func noteQueued(samples: Int, at now: Double) {
    if samples > samplesAfterRead { pacer.audioArrived(at: now) }
    samplesAfterRead = samples
  }

  /// An audio frame read its hops and left `samples` queued.
  package mutating func audioRead(leaving samples: Int) {
    samplesAfterRead = samples
  }

  /// The frame this wake-up makes at `now`: the next audio frame when one is due (the pacer
  /// decides how many hops it takes); else, for a player change, a tick once audio is late or
  /// the same scene rendered again between two chunks; a tick when the wait timed out with
  /// audio late; the current frame again for a delivery or the player's position.
  package mutating func frame(_ wake: Wake, at now: Double) -> FrameAction {
    let hops = pacer.hopsDue(queued: wake.queuedHops, at: now)
    guard hops > 0 else { return frameWithoutAudio(wake, at: now) }
    beforeAudioFrame = (pacer, lastRender)
    pacer.frameMade(at: now, withAudio: true)
    lastRender = now
    return .makeAudioFrame(hops: hops)
  }

  /// The ``FrameAction/makeAudioFrame(hops:)`` returned for `wake` found no audio to read (the
  /// capture dropped it meanwhile): no audio frame was made, and this is the frame instead.
  package mutating func audioFrameFailed(_ wake: Wake, at now: Double) -> FrameAction {
    if let before = beforeAudioFrame { (pacer, lastRender) = before }
    beforeAudioFrame = nil
    var wake = wake
    wake.queuedHops = 0
    return frameWithoutAudio(wake, at: now)
  }

  private mutating func frameWithoutAudio(_ wake: Wake, at now: Double) -> FrameAction {
    let late = now >= pacer.lateAfter
    if wake.playerChanged {
      // Shown now: with audio late a tick; between two chunks the same scene rendered again
      // with the new track (the time stays seconds of audio).
      if late, let tick = tick(at: now) { return tick }
      return renderAgain(at: now)
    }
    if wake.timedOut && wake.queuedHops == 0 && late {
      if let tick = tick(at: now) { return tick }
    } else if wake.deliveryWantsFrame {
      // The same scene, rendered for new consumers; the others write nothing.
      return renderAgain(at: now)
    }
    if let due = wake.positionDue, now >= due {
      return renderAgain(at: now)  // the same scene at the player's new position
    }
    return .none
  }

  /// A frame for an event at `now` (a status change, a reload, a resize): while audio flows
  /// the next audio frame, at most a period away, shows it, so the time stays seconds of
  /// audio; once audio is late, a tick now.
  package mutating func eventFrame(at now: Double) -> FrameAction {
    guard now >= pacer.lateAfter else { return .none }
    return tick(at: now) ?? .none
  }

  /// The capture's status changed at `now`; `newStream` when its stream was recreated (its
  /// chunks may differ, so the pacer forgets their interval). Returns the event's frame.
  package mutating func statusChanged(newStream: Bool, at now: Double) -> FrameAction {
    if newStream { pacer.reset() }
    return eventFrame(at: now)
  }

  /// A tick at `now`: the wall-clock time since the last frame, at most ``longestTick``; nil
  /// when none has passed.
  private mutating func tick(at now: Double) -> FrameAction? {
    let elapsed = min(now - pacer.lastFrame, Self.longestTick)
    guard elapsed > 0 else { return nil }
    pacer.frameMade(at: now, withAudio: false)
    lastRender = now
    return .tick(elapsed: elapsed)
  }

  private mutating func renderAgain(at now: Double) -> FrameAction {
    lastRender = now
    return .renderAgain
  }

  // MARK: - Player changes

  /// The player feed signalled a change: it waits until a frame is due (the engine stops
  /// polling the feed meanwhile), so a flood of changes costs one frame a period.
  package mutating func playerChangeSignalled() {
    playerChangePending = true
  }

  /// Whether the waiting player change is taken at `now` (and the feed polled again): when an
  /// audio frame is due (it carries the change), or a period after the last frame.
  package mutating func takesPlayerChange(at now: Double, queuedHops: Int) -> Bool {
    guard playerChangePending else { return false }
    let audioFrameDue = queuedHops > 0 && now >= pacer.nextHopTime - 0.000_5
    guard audioFrameDue || now >= pacer.lastFrame + pacer.period else { return false }
    playerChangePending = false
    return true
  }

  // MARK: - Sleeping

  /// How long the wait from `now` may last, in milliseconds (-1: until something is ready):
  /// until the next queued frame is due, the waiting player change is, a tick once audio is
  /// late while `needsTicks` (the scene animates or still says `playing`), the player's
  /// position changes a line (`positionDue`), or a delivery's deadline passes.
  package func sleepTimeout(
    at now: Double, queuedHops: Int, needsTicks: Bool, positionDue: Double?,
    deliveryDeadline: Double?
  ) -> Int32 {
    let frame = frameTimeout(
      at: now, queuedHops: queuedHops, needsTicks: needsTicks, positionDue: positionDue)
    guard let deliveryDeadline else { return frame }
    let wait =
      deliveryDeadline <= now
      ? 0 : Int32(min(60_000, ((deliveryDeadline - now) * 1000).rounded(.up)))
    return frame < 0 ? wait : min(frame, wait)
  }

  private func frameTimeout(
    at now: Double, queuedHops: Int, needsTicks: Bool, positionDue: Double?
  ) -> Int32 {
    if queuedHops > 0 { return Self.milliseconds(pacer.nextHopTime - now) }
    if playerChangePending { return Self.milliseconds(pacer.lastFrame + pacer.period - now) }
    var timeout: Int32 = -1
    if needsTicks {
      // While audio flows it paces the frames; tick only once it is late.
      let lateAfter = pacer.lateAfter
      timeout = Self.milliseconds(
        now >= lateAfter ? pacer.lastFrame + pacer.period - now : lateAfter - now)
    }
    // A template that shows the player's position: at most once a second while it plays.
    if let positionDue {
      let wait = Self.milliseconds(positionDue - now)
      timeout = timeout < 0 ? wait : min(timeout, wait)
    }
    return timeout
  }

  /// `seconds` as a wait: rounded up, at least 1 ms, at most a minute.
  private static func milliseconds(_ seconds: Double) -> Int32 {
    Int32(max(1, min(60_000, (seconds * 1000).rounded(.up))))
  }

  // MARK: - Frame rate

  /// The consumers want `wanted` frames a second (`FramePipeline.wantedFrameRate`, never above
  /// `general.fps`) while the pipeline analyses `current`: returns the rate to analyse at from
  /// now on when it changes, or with `force` (a reload), else nil. The pacer spaces frames by
  /// the new period from now on.
  package mutating func frameRate(wanted: Int, current: Int, force: Bool) -> Int? {
    let rate = max(1, wanted)
    guard rate != current || force else { return nil }
    pacer.changeFrameRate(to: rate)
    return rate
  }
}

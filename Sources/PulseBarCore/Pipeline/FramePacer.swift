/// When the live loop turns queued audio into frames: one hop (`1/fps` s of audio) per frame,
/// the frames of one capture chunk spread over the time until the next chunk.
///
/// The audio server hands audio over in chunks (a PulseAudio fragment, a PipeWire quantum, a
/// fifo writer's block) that hold several frames' worth; making every frame of a chunk at once
/// would send bars in bursts. What a frame shows comes from the audio clock alone: each frame
/// is the next hop of samples, and the pipeline's time is their count. The wall clock only
/// spaces the frames: one is due `catchUp × period` after the last, a little faster than
/// real time, so what a chunk brings is drawn before the next chunk lands and no delay builds
/// up. The chunk interval is learnt from the arrivals (a recent maximum that decays), so the
/// pacer needs no word from the source about its chunk size. Audio queued beyond one chunk
/// (a stall, a late burst) joins the next frame: the picture catches up at once instead of
/// trailing the music.
///
/// A value type driven with explicit times, so the rules are tested with exact numbers.
package struct FramePacer: Sendable {
  /// Seconds of audio per frame (`1/fps`).
  package private(set) var period: Double
  /// The shortest wall-clock gap between two frames made from queued audio, in periods.
  package static let catchUp = 0.9
  /// Gaps between arrivals longer than this are pauses in the audio, not chunk intervals.
  package static let longestChunk = 0.25

  /// The learnt time between two arrivals while audio flows (0 until two have come).
  package private(set) var chunkInterval: Double = 0
  /// When audio last arrived.
  package private(set) var lastArrival = -Double.infinity
  /// When the last frame was made, with audio or without.
  package private(set) var lastFrame = -Double.infinity
  /// Whether that frame was made from audio (a frame after a tick without audio is due at once).
  private var lastFrameHadAudio = false

  package init(fps: Int) {
    period = 1 / Double(max(1, fps))
  }

  /// The frame rate changed (a reload, or the fastest consumer's rate): frames are spaced by
  /// the new period from now on (the chunk interval is in seconds and stays).
  package mutating func changeFrameRate(to fps: Int) {
    period = 1 / Double(max(1, fps))
  }

  /// Audio arrived at `now`: learns the chunk interval.
  package mutating func audioArrived(at now: Double) {
    let interval = now - lastArrival
    if interval > 0 && interval <= Self.longestChunk {
      // A recent maximum: a chunk a little late raises it at once, then it decays back.
      chunkInterval = max(interval, chunkInterval * 0.9)
    }
    lastArrival = now
  }

  /// Hops that may wait after a frame: what one chunk brings (at least one).
  package var queueAllowance: Int {
    max(1, Int((chunkInterval / period).rounded(.up)))
  }

  /// How many of `queued` whole hops the frame due at `now` takes: 0 when none is due yet, one
  /// normally, more when more than a chunk is queued (they join this frame).
  package func hopsDue(queued: Int, at now: Double) -> Int {
    guard queued > 0, now >= nextHopTime - 0.000_5 else { return 0 }
    return max(1, queued - queueAllowance)
  }

  /// When the next queued hop is due: at once after a frame without audio, else `catchUp`
  /// periods after the last frame.
  package var nextHopTime: Double {
    lastFrameHadAudio ? lastFrame + Self.catchUp * period : -Double.infinity
  }

  /// A frame was made at `now`, from audio or not.
  package mutating func frameMade(at now: Double, withAudio: Bool) {
    lastFrame = now
    lastFrameHadAudio = withAudio
  }

  /// When audio that has not come counts as late: one chunk interval and two periods after the
  /// last arrival. Until then the loop waits for it instead of drawing frames without audio.
  package var lateAfter: Double { lastArrival + chunkInterval + 2 * period }

  /// Forgets the chunk interval (the stream was recreated: its chunks may differ).
  package mutating func reset() {
    chunkInterval = 0
    lastArrival = -Double.infinity
  }
}

import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarPlayers
import PulseBarSystem

/// The live frame loop: drains the capture buffer, advances the pipeline one
/// frame per `1/fps` s of audio, and hands frames to the deliveries.
///
/// Paced by the audio: it sleeps in `poll` on the capture buffer's eventfd
/// (and the signal descriptor), with no timeout while nothing moves. The audio server hands
/// audio over in chunks of a few frames (a PulseAudio fragment, a PipeWire quantum); the
/// ``FramePacer`` draws the first frame of a chunk at once and spaces the rest until the next
/// chunk, each frame one hop of samples. Audio queued beyond a chunk (a late burst) joins the
/// next frame, never a burst of stale frames. When audio stops arriving it ticks on the wall
/// clock only while the scene still animates (or still says `playing`, to reach the silence
/// timeout), then not at all. Runs on the thread that calls ``run()``.
///
/// The active MPRIS player arrives the same way: its feed's eventfd wakes the loop only when
/// the player or its track changed. Player changes merge into frames: the latest one is taken
/// when a frame is due (one period after the last frame), and the feed is not polled in
/// between, so a player that floods the bus with changes costs at most one wake-up and one
/// frame per period: the audio frame made then, else the same scene rendered again (or a tick,
/// when audio is late).
package final class Engine {
  private var pipeline: FramePipeline
  private let buffer: CaptureBuffer
  /// What fills ``buffer``; told when a reload changes the buffer's format.
  private let capture: CaptureSource?
  private var deliveries: [FrameDelivery]
  private let signals: SignalReceiver?
  /// The active MPRIS player's snapshots, when the session bus is there (the pipeline holds
  /// the current one).
  private let players: PlayerFeed?
  /// Called with a new configuration after SIGHUP/SIGUSR1 (nil keeps the old one).
  private let reload: (() -> Configuration?)?
  /// Called with `STATUS=`-style text when the source or state changes.
  package var onStatus: ((String) -> Void)?
  /// Called with the frames a second analysed when that changes (it follows the fastest
  /// consumer: see ``FramePipeline/wantedFrameRate``).
  package var onFrameRate: ((Int) -> Void)?
  /// Extra descriptor to poll (the terminal's stdin) and what to do when it is readable.
  package var input: (descriptor: FileDescriptor, handle: () -> Bool)?

  /// Whether the loop is stuck inside a frame (read by the watchdog thread).
  package let health = EngineHealth()
  private var status = CaptureStatus()
  private var readBuffer: UnsafeMutableBufferPointer<Float>
  /// Spaces the frames a chunk of audio holds; knows when missing audio is late, and when the
  /// last frame was made.
  private var pacer: FramePacer
  /// Samples left in the buffer after the last read: more on a wake means audio arrived.
  private var samplesAfterRead = 0
  private var versions: [UInt64] = []
  private var lastStatusText = ""
  private var lastStatusKey: (PlaybackState, Bool, UInt32)?
  private var stopping = false
  /// The player feed signalled a change that is not yet in the pipeline (see the type's docs).
  private var playerChangePending = false
  /// The player the capture was last told about.
  private var capturedPlayer: PlayerAudioIdentity?
  /// The monotonic time the last frame was rendered at (``FrameInfo/clock``).
  private var lastRenderClock = 0.0

  package init(
    pipeline: FramePipeline, buffer: CaptureBuffer, capture: CaptureSource? = nil,
    deliveries: [FrameDelivery], signals: SignalReceiver? = nil,
    reload: (() -> Configuration?)? = nil, players: PlayerFeed? = nil
  ) {
    self.pipeline = pipeline
    self.buffer = buffer
    self.capture = capture
    self.deliveries = deliveries
    self.signals = signals
    self.players = players
    self.reload = reload
    pacer = FramePacer(fps: pipeline.configuration.fps)
    // A second of audio at the most channels a reload can ask for: more than any fragment, so
    // one read drains a late burst.
    readBuffer = .allocate(capacity: buffer.sampleRate * CaptureFormat.maxChannels)
  }

  deinit { readBuffer.deallocate() }

  /// Frames produced so far.
  package var frameCount: UInt64 { pipeline.frameCount }

  /// Runs until a stop signal, the end of the input, or a delivery refuses. Returns the exit code.
  package func run() -> Int32 {
    syncConsumers(force: true)
    pacer.frameMade(at: monotonicSeconds(), withAudio: false)
    // The start-up picture at once, whatever the audio does: a bar shows `stopped` (and, with
    // no audio server yet, `connected:false`) instead of nothing until the first sound.
    if let changed = buffer.takeStatusChange() { apply(changed) }
    if let change = players?.take() { takePlayer(change) }
    deliverFrame()
    // Built once: the loop allocates nothing per frame.
    var poll = PollSet()
    let audio = poll.add(buffer.wakeDescriptor)
    let signalIndex = signals.map { poll.add($0.descriptor) }
    let playersIndex = players.map { poll.add($0.descriptor) }
    // Deliveries with descriptors of their own (the socket's clients, the terminal's redraws):
    // (the delivery, its index in the poll set).
    var wakes: [(delivery: FrameDelivery, index: Int)] = []
    for delivery in deliveries {
      if let wake = delivery.wakeDescriptor { wakes.append((delivery, poll.add(wake))) }
    }
    let inputIndex = input.map { poll.add($0.descriptor) }
    // A source driven by this loop (libpulse's mainloop) waits in the same poll: a fragment
    // wakes this thread once, and its callback fills the buffer right here.
    let driven = capture as? EngineDrivenCapture
    while !stopping {
      let timeout = pollTimeout()
      health.endWork()
      let ready =
        driven?.wait(&poll, timeoutMilliseconds: timeout, audioWanted: queuedHops == 0)
        ?? poll.wait(timeoutMilliseconds: timeout)
      health.beginWork()
      if !poll.ready(audio).isEmpty { buffer.drainWakeups() }
      if let signalIndex, !poll.ready(signalIndex).isEmpty { handleSignals() }
      if let input, let inputIndex, !poll.ready(inputIndex).isEmpty, !input.handle() { break }
      if stopping { break }
      if let changed = buffer.takeStatusChange() { apply(changed) }
      noteArrival()
      if let playersIndex, !poll.ready(playersIndex).isEmpty {
        // Not polled again until the change is taken.
        playerChangePending = true
        poll.update(playersIndex, [])
      }
      var playerFrameWanted = false
      if let players, let playersIndex, playerChangePending, playerFrameDue(at: monotonicSeconds())
      {
        playerChangePending = false
        poll.update(playersIndex, .readable)
        if let change = players.take() {
          // A pause, a new track, a player gone.
          takePlayer(change)
          playerFrameWanted = true
        }
      }
      let deliveryWantsFrame = serviceDeliveries(poll: poll, wakes: wakes)
      let produced = consumeAudio()
      if playerFrameWanted && !produced {
        // Shown now: with audio late a tick; between two chunks the same scene rendered again
        // with the new track (the time stays seconds of audio).
        if monotonicSeconds() >= pacer.lateAfter { tickWithoutAudio() } else { deliverFrame() }
      }
      if !produced && ready == 0 && queuedHops == 0 && monotonicSeconds() >= pacer.lateAfter {
        tickWithoutAudio()
      } else if !produced && deliveryWantsFrame {
        deliverFrame()  // the same scene, rendered for new consumers; others write nothing
      }
      if let due = pipeline.nextPositionChange(after: lastRenderClock),
        monotonicSeconds() >= due
      {
        deliverFrame()  // the same scene at the player's new position
      }
      if status.endOfStream && queuedHops == 0 {
        break
      }
    }
    return 0
  }

  /// Shows the player's new snapshot, and tells the capture who plays (it records that
  /// player's streams with `input.scope = player`) when that changed.
  private func takePlayer(_ change: NowPlaying?) {
    pipeline.nowPlaying = change
    let identity = change.map(\.audioIdentity)
    if identity != capturedPlayer {
      capturedPlayer = identity
      capture?.follow(player: identity)
      // A source on this thread has already said what it records now: in the same frame as
      // the player's pause, so no frame shows `paused` while others play.
      if let changed = buffer.takeStatusChange() { apply(changed) }
    }
  }

  /// Whether a waiting player change is taken now: when an audio frame is due (it carries the
  /// change), or a period after the last frame.
  private func playerFrameDue(at now: Double) -> Bool {
    (queuedHops > 0 && now >= pacer.nextHopTime - 0.000_5) || now >= pacer.lastFrame + pacer.period
  }

  /// Lets each delivery handle what is ready on its descriptor or due by its deadline; true
  /// when one wants the current frame delivered again.
  private func serviceDeliveries(poll: PollSet, wakes: [(delivery: FrameDelivery, index: Int)])
    -> Bool
  {
    let now = monotonicNanoseconds()
    var wantsFrame = false
    for wake in wakes {
      let due = wake.delivery.nextDeadline.map { $0 <= now } ?? false
      if (due || !poll.ready(wake.index).isEmpty) && wake.delivery.service(now: now) {
        wantsFrame = true
      }
    }
    return wantsFrame
  }

  /// How long poll may sleep: until the next queued frame is due, or a delivery's deadline.
  private func pollTimeout() -> Int32 {
    let frame = frameTimeout()
    var earliest: UInt64?
    for delivery in deliveries {
      guard let deadline = delivery.nextDeadline else { continue }
      earliest = min(earliest ?? deadline, deadline)
    }
    guard let earliest else { return frame }
    let now = monotonicNanoseconds()
    let wait = earliest <= now ? 0 : Int32(min(60_000, (earliest - now + 999_999) / 1_000_000))
    return frame < 0 ? wait : min(frame, wait)
  }

  /// Until the next queued frame is due; forever while nothing must move without audio; else
  /// until the next tick once audio is late.
  private func frameTimeout() -> Int32 {
    let now = monotonicSeconds()
    if queuedHops > 0 { return milliseconds(pacer.nextHopTime - now) }
    if playerChangePending { return milliseconds(pacer.lastFrame + pacer.period - now) }
    var timeout: Int32 = -1
    if pipeline.isAnimating || pipeline.scene.state == .playing {
      // While audio flows it paces the frames; tick only once it is late.
      let lateAfter = pacer.lateAfter
      timeout = milliseconds(
        now >= lateAfter ? pacer.lastFrame + pacer.period - now : lateAfter - now)
    }
    // A template that shows the player's position: at most once a second while it plays.
    if let due = pipeline.nextPositionChange(after: lastRenderClock) {
      let wait = milliseconds(due - now)
      timeout = timeout < 0 ? wait : min(timeout, wait)
    }
    return timeout
  }

  /// `seconds` as a poll timeout: rounded up, at least 1 ms.
  private func milliseconds(_ seconds: Double) -> Int32 {
    Int32(max(1, min(60_000, (seconds * 1000).rounded(.up))))
  }

  /// Samples of one hop (one frame's audio) at the pipeline's channels.
  private var hopSamples: Int { pipeline.hopFrames * pipeline.analyzer.channels }

  /// Whole hops waiting in the buffer.
  private var queuedHops: Int { buffer.availableSamples / hopSamples }

  /// Tells the pacer when samples arrived (more waiting than the last read left).
  private func noteArrival() {
    let available = buffer.availableSamples
    if available > samplesAfterRead { pacer.audioArrived(at: monotonicSeconds()) }
    samplesAfterRead = available
  }

  /// Makes the frame that is due from queued audio, if one is: one hop, or more when more than
  /// a chunk waits (see ``FramePacer``).
  private func consumeAudio() -> Bool {
    // The pipeline's channels are the buffer's: a reload changes both before the next read.
    let hopSamples = hopSamples
    let now = monotonicSeconds()
    let hops = pacer.hopsDue(queued: buffer.availableSamples / hopSamples, at: now)
    guard hops > 0 else { return false }
    let wanted = min(hops * hopSamples, readBuffer.count - readBuffer.count % hopSamples)
    let count = buffer.read(into: UnsafeMutableBufferPointer(rebasing: readBuffer[..<wanted]))
    samplesAfterRead = buffer.availableSamples
    guard count > 0 else { return false }
    pipeline.advance(
      audio: UnsafeBufferPointer(rebasing: readBuffer[..<count]), activity: status.activity)
    pacer.frameMade(at: now, withAudio: true)
    deliverFrame()
    return true
  }

  /// A frame for an event (a status change, a reload, a resize): while audio flows the next
  /// audio frame, at most a period away, shows it, so the time stays seconds of audio; else a
  /// tick now.
  private func eventFrame() {
    if monotonicSeconds() >= pacer.lateAfter { tickWithoutAudio() }
  }

  private func tickWithoutAudio() {
    let now = monotonicSeconds()
    let elapsed = min(now - pacer.lastFrame, 0.25)
    guard elapsed > 0 else { return }
    pacer.frameMade(at: now, withAudio: false)
    pipeline.advanceWithoutAudio(by: elapsed, activity: status.activity)
    deliverFrame()
  }

  private func deliverFrame() {
    syncConsumers(force: false)
    // The player's position is extrapolated to the frame's wall-clock time.
    lastRenderClock = monotonicSeconds()
    let info = FrameInfo(
      time: pipeline.time, source: status.sourceName, connected: status.connected,
      clock: lastRenderClock)
    pipeline.renderConsumers(info: info)
    for delivery in deliveries where !delivery.deliver(pipeline: pipeline, info: info) {
      stopping = true
    }
    reportStatus()
  }

  /// Registers the union of the deliveries' consumers when any of them changed.
  private func syncConsumers(force: Bool) {
    var changed = force || versions.count != deliveries.count
    for (index, delivery) in deliveries.enumerated() where !changed {
      changed = versions[index] != delivery.keysVersion
    }
    guard changed else { return }
    versions = deliveries.map(\.keysVersion)
    var keys = Set<ConsumerKey>()
    for delivery in deliveries {
      for key in delivery.wantedKeys where (try? pipeline.addConsumer(key)) != nil {
        keys.insert(key)
      }
    }
    pipeline.retainConsumers(keys)
    // Analyse no faster than the fastest consumer reads.
    let rate = pipeline.wantedFrameRate
    if rate != pipeline.frameRate || force {
      pipeline.setFrameRate(rate)
      pacer.changeFrameRate(to: pipeline.frameRate)
      onFrameRate?(pipeline.frameRate)
    }
  }

  private func apply(_ newStatus: CaptureStatus) {
    if newStatus.generation != status.generation {
      pipeline.resetAudio()
      pacer.reset()
    }
    status = newStatus
    pipeline.othersPlay = newStatus.othersPlay
    // A status change (a stream corked, the server gone) shows at once.
    eventFrame()
  }

  private func reportStatus() {
    guard let onStatus else { return }
    let key = (pipeline.scene.state, status.connected, status.generation)
    if let last = lastStatusKey, last == key { return }
    lastStatusKey = key
    let text =
      "\(pipeline.scene.state.rawValue) · \(status.connected ? status.sourceName : "audio server unreachable")"
    if text != lastStatusText {
      lastStatusText = text
      onStatus(text)
    }
  }

  private func handleSignals() {
    while let signal = signals?.poll() {
      switch signal {
      case .terminate: stopping = true
      case .reload:
        if let configuration = reload?() { replacePipeline(configuration) }
      case .resize:
        eventFrame()
      }
    }
  }

  /// Applies a reloaded configuration (validated by the reload closure): a new pipeline that
  /// goes on from the old one's time and scene; the capture rebuilt when its channels or pace
  /// changed (the buffer drops audio of the old channel count, the source follows); the
  /// deliveries told, so stdout, the terminal and the socket's default follow the new keys.
  private func replacePipeline(_ configuration: Configuration) {
    let format = CaptureFormat(channels: configuration.channels.count, fps: configuration.fps)
    if format != buffer.format {
      buffer.reconfigure(format)
      capture?.formatChanged()
    }
    capture?.scopeChanged(configuration.scope)
    let nowPlaying = pipeline.nowPlaying
    pacer.changeFrameRate(to: configuration.fps)
    pipeline = FramePipeline(
      configuration: configuration, sampleRate: pipeline.sampleRate, continuing: pipeline)
    pipeline.nowPlaying = nowPlaying
    pipeline.othersPlay = status.othersPlay
    for delivery in deliveries { delivery.configurationChanged(configuration) }
    syncConsumers(force: true)
    eventFrame()
  }
}

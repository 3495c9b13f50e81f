import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarPlayers
import PulseBarSystem

/// The live frame loop: drains the capture buffer, advances the pipeline one
/// frame per `1/fps` s of audio, and hands frames to the deliveries.
///
/// Paced by the audio: it sleeps in `poll` on the capture buffer's eventfd (and the signal
/// descriptor, the player feed's, the deliveries'), with no timeout while nothing moves. What
/// to do at each wake-up is ``EngineCore``'s decision (pacing the frames of a chunk, ticks
/// while audio is late and the scene still moves, when a player change is taken, how long to
/// sleep, the frame rate); this class does the I/O around it: the wait, reading the buffer,
/// the pipeline, the deliveries, signals and reloads. Confined to the thread that calls
/// ``run()`` (or ``start()``), which debug builds assert.
///
/// The time and the wait come from `Clock`: the system's in the daemon, a manual one in tests,
/// which drive this same loop one ``turn()`` at a time on exact times.
///
/// The active MPRIS player arrives the same way: its feed's eventfd wakes the loop only when
/// the player or its track changed, and the feed is not polled again until the core takes the
/// change, at most once a period.
package final class Engine<Clock: EngineClock> {
  private var pipeline: FramePipeline
  private let buffer: CaptureBuffer
  private let clock: Clock
  /// What fills ``buffer``; told the player and each change of format, scope and rate once.
  private let capture: CaptureSource?
  /// ``capture`` when the loop drives it (libpulse's mainloop): it waits in the loop's poll.
  private let driven: EngineDrivenCapture?
  private var deliveries: [FrameDelivery]
  private let signals: SignalReceiver?
  /// The active MPRIS player's snapshots, when the session bus is there (the pipeline holds
  /// the current one).
  private let playerFeed: PlayerFeed?
  /// Where a reload posts the players' thread's settings.
  private let playerSettings: PlayerSettings?
  /// Reads the configuration again after SIGHUP/SIGUSR1 and plans the reload (nil: refused,
  /// the old one runs on); ``apply(_:)`` carries the plan out.
  private let reload: (() -> ReloadPlan?)?
  /// Called with `STATUS=`-style text when the source or state changes.
  package var onStatus: ((String) -> Void)?
  /// Gets the `-v` lines (the frames a second analysed when that changes).
  package var debug: ((String) -> Void)?
  /// Extra descriptor to poll (the terminal's stdin) and what to do when it is readable.
  package var input: (descriptor: FileDescriptor, handle: () -> Bool)?

  /// Whether the loop is stuck inside a frame (read by the watchdog thread).
  package let health = EngineHealth()
  private var status = CaptureStatus()
  private var readBuffer: UnsafeMutableBufferPointer<Float>
  /// The loop's decisions: pacing, ticks, player changes, the wait, the frame rate.
  private var core: EngineCore
  /// The analysis rate the capture was last told.
  private var toldRate: Int?
  private var versions: [UInt64] = []
  private var statusLine = StatusLine()
  private var stopping = false
  private var wakes = EngineWakeSet()
  private var confinement = ThreadConfinement()

  package init(
    pipeline: FramePipeline, buffer: CaptureBuffer, capture: CaptureSource? = nil,
    deliveries: [FrameDelivery], signals: SignalReceiver? = nil,
    reload: (() -> ReloadPlan?)? = nil, playerFeed: PlayerFeed? = nil,
    playerSettings: PlayerSettings? = nil, clock: Clock
  ) {
    self.pipeline = pipeline
    self.buffer = buffer
    self.clock = clock
    self.capture = capture
    driven = capture as? EngineDrivenCapture
    self.deliveries = deliveries
    self.signals = signals
    self.playerFeed = playerFeed
    self.reload = reload
    self.playerSettings = playerSettings
    core = EngineCore(fps: pipeline.configuration.fps)
    // A second of audio at the most channels a reload can ask for: more than any fragment, so
    // one read drains a late burst.
    readBuffer = .allocate(capacity: buffer.sampleRate * CaptureFormat.maxChannels)
  }

  deinit { readBuffer.deallocate() }

  /// Frames produced so far.
  package var frameCount: UInt64 { pipeline.frameCount }

  /// Runs until a stop signal, the end of the input, or a delivery refuses. Returns the exit code.
  package func run() -> Int32 {
    start()
    while turn() != .ended {}
    return 0
  }

  /// Shows the start-up frame and builds the wait's descriptor set; ``turn()`` goes on from it.
  package func start() {
    confinement.check("Engine")
    syncConsumers(force: true)
    let now = clock.now()
    core.started(at: now)
    // The start-up picture at once, whatever the audio does: a bar shows `stopped` (and, with
    // no audio server yet, `connected:false`) instead of nothing until the first sound.
    if let changed = buffer.takeStatusChange() { statusChanged(changed, at: now) }
    if let change = playerFeed?.take() { takePlayer(change) }
    deliverFrame()
    // Built once: the loop allocates nothing per frame.
    wakes = EngineWakeSet(
      audio: buffer.wakeDescriptor, signals: signals?.descriptor, feed: playerFeed?.descriptor,
      deliveries: deliveries, input: input?.descriptor)
  }

  /// One wake-up after ``start()``: waits, handles what is ready, and makes the frame that is due.
  package func turn() -> EngineTurn {
    confinement.check("Engine")
    if stopping { return .ended }
    let timeout = sleepTimeout()
    health.endWork()
    // A source driven by this loop (libpulse's mainloop) waits in the same poll: a fragment
    // wakes this thread once, and its callback fills the buffer right here.
    let result = clock.wait(
      &wakes.poll, timeoutMilliseconds: timeout, driven: driven, audioWanted: queuedHops == 0)
    health.beginWork()
    if result == .suspended { return .suspended }
    // The turn's one reading of the time: everything it handles happened at `now`.
    let now = clock.now()
    if wakes.isReady(wakes.audio) { buffer.drainWakeups() }
    if wakes.isReady(wakes.signals) { handleSignals(at: now) }
    if let input, wakes.isReady(wakes.input), !input.handle() { return .ended }
    if stopping { return .ended }
    if let changed = buffer.takeStatusChange() { statusChanged(changed, at: now) }
    core.noteQueued(samples: buffer.availableSamples, at: now)
    var wake = EngineCore.Wake(queuedHops: queuedHops, timedOut: result == .timedOut)
    wake.playerChanged = takePlayerChange(wake: wake, at: now)
    wake.deliveryWantsFrame = serviceDeliveries(at: now)
    wake.positionDue = pipeline.nextPositionChange(after: core.lastRender)
    perform(core.frame(wake, at: now), for: wake, at: now)
    return (status.endOfStream && queuedHops == 0) || stopping ? .ended : .continues
  }

  /// Takes the player feed's latest change when ``EngineCore`` says a frame is due for it (the
  /// feed is not polled in between); true when it changed what the pipeline shows.
  private func takePlayerChange(wake: EngineCore.Wake, at now: Double) -> Bool {
    guard let playerFeed, let slot = wakes.playerFeed else { return false }
    if wakes.isReady(slot) {
      // Not polled again until the change is taken.
      core.playerChangeSignalled()
      wakes.poll.update(slot, [])
    }
    guard core.takesPlayerChange(at: now, queuedHops: wake.queuedHops) else { return false }
    wakes.poll.update(slot, .readable)
    guard let change = playerFeed.take() else { return false }
    takePlayer(change)  // a pause, a new track, a player gone
    return true
  }

  /// Shows the player's new snapshot, and tells the capture who plays (with `input.scope =
  /// player` it records that player's streams; it ignores a snapshot that changes neither),
  /// which arrives as a status change in the next turn, well within the state's debounce.
  private func takePlayer(_ change: NowPlaying?) {
    pipeline.nowPlaying = change
    capture?.follow(player: change.map(\.audioIdentity))
  }

  /// Carries out ``EngineCore``'s frame for `wake`.
  private func perform(
    _ action: EngineCore.FrameAction, for wake: EngineCore.Wake = .init(queuedHops: 0),
    at now: Double
  ) {
    switch action {
    case .none:
      break
    case .makeAudioFrame(let hops):
      if !makeAudioFrame(hops: hops) { perform(core.audioFrameFailed(wake, at: now), at: now) }
    case .tick(let elapsed):
      pipeline.advanceWithoutAudio(by: elapsed, activity: status.activity)
      deliverFrame()
    case .renderAgain:
      deliverFrame()
    }
  }

  /// Lets each delivery handle what is ready on its descriptor or due by its deadline; true
  /// when one wants the current frame delivered again.
  private func serviceDeliveries(at now: Double) -> Bool {
    var wantsFrame = false
    for wake in wakes.deliveries {
      let due = wake.delivery.nextDeadline.map { $0 <= now } ?? false
      if (due || wakes.isReady(wake.index)) && wake.delivery.service(now: now) {
        wantsFrame = true
      }
    }
    return wantsFrame
  }

  /// How long the wait may last (see ``EngineCore/sleepTimeout(at:queuedHops:needsTicks:positionDue:deliveryDeadline:)``).
  private func sleepTimeout() -> Int32 {
    let now = clock.now()
    var earliest: Double?
    for delivery in deliveries {
      guard let deadline = delivery.nextDeadline else { continue }
      earliest = min(earliest ?? deadline, deadline)
    }
    return core.sleepTimeout(
      at: now, queuedHops: queuedHops,
      needsTicks: pipeline.isAnimating || pipeline.scene.state == .playing,
      positionDue: pipeline.nextPositionChange(after: core.lastRender),
      deliveryDeadline: earliest)
  }

  /// Samples of one hop (one frame's audio) at the pipeline's channels.
  private var hopSamples: Int { pipeline.hopFrames * pipeline.analyzer.channels }

  /// Whole hops waiting in the buffer.
  private var queuedHops: Int { buffer.availableSamples / hopSamples }

  /// Reads `hops` hops of queued audio into the next frame; false when the buffer had none.
  private func makeAudioFrame(hops: Int) -> Bool {
    // The pipeline's channels are the buffer's: a reload changes both before the next read.
    let hopSamples = hopSamples
    let wanted = min(hops * hopSamples, readBuffer.count - readBuffer.count % hopSamples)
    let count = buffer.read(into: UnsafeMutableBufferPointer(rebasing: readBuffer[..<wanted]))
    core.audioRead(leaving: buffer.availableSamples)
    guard count > 0 else { return false }
    // Where the audio changed hands amid sound, that step is no onset.
    if let change = buffer.takeSourceSwitch() { pipeline.sourceSwitched(change) }
    pipeline.advance(
      audio: UnsafeBufferPointer(rebasing: readBuffer[..<count]), activity: status.activity)
    deliverFrame()
    return true
  }

  private func deliverFrame() {
    syncConsumers(force: false)
    // The player's position is extrapolated to the frame's wall-clock time.
    let info = FrameInfo(
      time: pipeline.time, source: status.sourceName, connected: status.connected,
      clock: core.lastRender)
    pipeline.renderConsumers(info: info)
    for delivery in deliveries where !delivery.deliver(pipeline: pipeline, info: info) {
      stopping = true
    }
    if let onStatus, let text = statusLine.update(state: pipeline.scene.state, status: status) {
      onStatus(text)
    }
  }

  /// Registers the deliveries' consumers when any changed; tells the capture `pending` and a
  /// new analysis rate in one call, if either says anything.
  private func syncConsumers(force: Bool, telling pending: CaptureChange = CaptureChange()) {
    var change = pending
    defer { if !change.isEmpty { capture?.reconfigure(change) } }
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
    let wanted = pipeline.wantedFrameRate
    if let rate = core.frameRate(wanted: wanted, current: pipeline.frameRate, force: force) {
      pipeline.setFrameRate(rate)
      // Audio wakes the loop once a frame's worth has come (a reload forces this, channels too).
      buffer.wakeReader(atSamples: hopSamples)
      if rate != toldRate {
        toldRate = rate
        debug?("analysing \(rate) frames a second (the fastest consumer's rate)")
        change.analysisRate = rate
      }
    }
  }

  /// Takes the capture's new status; a change (a stream corked, the server gone) shows at once.
  private func statusChanged(_ newStatus: CaptureStatus, at now: Double) {
    let newStream = newStatus.generation != status.generation
    if newStream { pipeline.resetAudio() }
    status = newStatus
    pipeline.othersPlay = newStatus.othersPlay
    perform(core.statusChanged(newStream: newStream, at: now), at: now)
  }

  private func handleSignals(at now: Double) {
    while let signal = signals?.poll() {
      switch signal {
      case .terminate: stopping = true
      case .reload:
        if let plan = reload?() { apply(plan, at: now) }
      case .resize: perform(core.eventFrame(at: now), at: now)
      }
    }
  }

  /// Carries out a reload's plan, the one place that does (see ``ReloadPlan``): the buffer
  /// follows a new format, the players' thread its settings; a new pipeline continues the old
  /// one; every delivery is told, so the outputs follow the new keys; the consumers are
  /// registered again (the pacer's rate), the capture told once of all that changed for it
  /// (format, analysis rate, scope), and a frame shows the result, at the turn's `now` (read
  /// from the clock when called from outside a turn).
  package func apply(_ plan: ReloadPlan, at now: Double? = nil) {
    confinement.check("Engine")
    guard plan.refusal == nil else { return }
    let configuration = plan.applied
    let change = CaptureChange(plan)
    if let format = change.format { buffer.reconfigure(format) }
    if plan.playerSettingsChanged { playerSettings?.post(configuration) }
    pipeline = FramePipeline(
      configuration: configuration, sampleRate: pipeline.sampleRate, continuing: pipeline)
    for delivery in deliveries { delivery.reload(plan) }
    syncConsumers(force: true, telling: change)
    let now = now ?? clock.now()
    perform(core.eventFrame(at: now), at: now)
  }
}

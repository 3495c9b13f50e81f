/// The whole per-frame path with no I/O: analysis → bars per layout → scene → lines per consumer.
///
/// One FFT per frame serves every consumer; each distinct bar count is banded
/// once per frame, and each distinct (format, bars) rendered once. Time is
/// audio time, injected by the caller: `advance(audio:…)` moves it by one
/// frame of audio, `advanceWithoutAudio(by:…)` by what the caller's clock says
/// while no audio arrives (animations still in flight). Not `Sendable`: one thread at a time.
package final class FramePipeline {
  package let configuration: Configuration
  package let sampleRate: Int
  /// Frames a second the pipeline analyses: the fastest consumer's rate, at most
  /// `configuration.fps` (see ``wantedFrameRate``).
  package private(set) var frameRate: Int
  /// Sample frames (per channel) in one frame of output: `sampleRate / frameRate`.
  package private(set) var hopFrames: Int
  package let analyzer: SpectrumAnalyzer
  package private(set) var scene: Scene
  /// Seconds of audio since the start.
  package private(set) var time: Double = 0
  /// Frames produced.
  package private(set) var frameCount: UInt64 = 0
  /// True when the last frame's peak reached the noise floor (``silenceLevel``).
  package private(set) var signalPresent = false
  /// The active MPRIS player and its track: its status steers the scene's state, its texts go
  /// to every renderer while ``PlayerAttribution`` shows them (escaped there once per change,
  /// never per frame).
  package var nowPlaying: NowPlaying? {
    didSet {
      guard nowPlaying != oldValue else { return }
      playerStatus = nowPlaying?.status
      attributePlayer(changed: true)
    }
  }
  /// Whether the renderers were handed ``nowPlaying`` (``PlayerAttribution``).
  private var playerShown = false
  /// The audio is known to be someone else's than the active player's, which does not play
  /// (`input.scope = player`): the player's `Paused` does not hold the state, the audio decides.
  package var othersPlay = false
  /// ``nowPlaying``'s status, kept apart: a frame reads it without copying the track's texts.
  private var playerStatus: PlayerStatus?
  /// Whether the text lines are hidden (`output.hide_when`), decided per frame.
  package private(set) var visibility: LineVisibility

  private var layouts: [BarProcessor] = []
  /// Per layout: the bars to draw (live bars blended with the rest heights).
  private var displayBars: [UnsafeMutableBufferPointer<Float>] = []
  private var consumers:
    [(key: ConsumerKey, layout: Int, renderer: FrameRenderer, gate: FrameRateGate, changed: Bool)] =
      []
  /// The schedules and line numbers a reload carried over from the pipeline replaced.
  private var carry = ReloadCarry()
  /// The one silence rule: a frame whose peak is below this (the configured
  /// `analysis.noise_floor`, −70 dBFS by default) is silent. The automatic gain
  /// holds still on it and the playback state counts it toward `paused`, so dither
  /// and PipeWire's noised 16-bit silence are silence, not music to amplify.
  package let silenceLevel: Float

  /// A pipeline for `configuration`. With `previous` (a reload) it goes on from the old one's
  /// audio time, frame count, scene (``Scene/reconfigure(_:)``), player and ``othersPlay``: json's
  /// `time` never steps back, a playing bar stays playing, the track stays shown. The analysis
  /// (spectra, gain, onsets) starts afresh: its channels, rate or cut-offs may be new.
  package init(
    configuration: Configuration, sampleRate: Int, continuing previous: FramePipeline? = nil
  ) {
    self.configuration = configuration
    self.sampleRate = sampleRate
    frameRate = configuration.fps
    hopFrames = max(1, sampleRate / configuration.fps)
    silenceLevel = configuration.noiseFloorAmplitude
    visibility = LineVisibility(rule: configuration.hideWhen, after: configuration.hideAfter)
    analyzer = SpectrumAnalyzer(
      sampleRate: sampleRate, channels: configuration.channels.count, fps: configuration.fps,
      onsetThreshold: configuration.onsetThreshold)
    if let previous {
      scene = previous.scene
      scene.reconfigure(configuration)
      time = previous.time
      frameCount = previous.frameCount
      nowPlaying = previous.nowPlaying
      playerStatus = previous.playerStatus
      playerShown = previous.playerShown
      othersPlay = previous.othersPlay
      carry = ReloadCarry(
        previous.carry, previous.consumers.map { ($0.key, $0.gate, $0.renderer.sequence) })
      // The fresh analysis starts from zeros: amid sound that step is no onset.
      if previous.signalPresent { analyzer.reprimeOnsets() }
    } else {
      scene = Scene(configuration: configuration)
    }
  }

  deinit {
    for buffer in displayBars { buffer.deallocate() }
  }

  // MARK: - Consumers

  /// Registers a consumer (idempotent) and returns its index for ``line(of:)``.
  @discardableResult
  package func addConsumer(_ key: ConsumerKey) throws(LayoutError) -> Int {
    if let index = consumers.firstIndex(where: { $0.key == key }) { return index }
    let layout = try layoutIndex(bars: key.bars)
    let renderer = FrameRenderer(format: key.format, configuration: configuration)
    renderer.mirrored = configuration.channels == .stereo
    renderer.nowPlaying = playerShown ? nowPlaying : nil
    renderer.continueSequence(after: carry.sequence)
    let gate = carry.gate(for: key, daemonFPS: configuration.fps, pipelineFPS: frameRate)
    consumers.append((key, layout, renderer, gate, false))
    return consumers.count - 1
  }

  /// Keeps only the consumers in `keys` (plus none else); layouts nobody reads are dropped.
  package func retainConsumers(_ keys: Set<ConsumerKey>) {
    consumers.removeAll { !keys.contains($0.key) }
    let used = Set(consumers.map(\.layout))
    guard used.count < layouts.count else { return }
    var remap: [Int: Int] = [:]
    var keptLayouts: [BarProcessor] = []
    var keptBars: [UnsafeMutableBufferPointer<Float>] = []
    for (index, layout) in layouts.enumerated() {
      if used.contains(index) {
        remap[index] = keptLayouts.count
        keptLayouts.append(layout)
        keptBars.append(displayBars[index])
      } else {
        displayBars[index].deallocate()
      }
    }
    layouts = keptLayouts
    displayBars = keptBars
    for index in consumers.indices { consumers[index].layout = remap[consumers[index].layout]! }
  }

  /// The index of the consumer for `key`, if registered.
  package func consumerIndex(of key: ConsumerKey) -> Int? {
    consumers.firstIndex { $0.key == key }
  }

  private func layoutIndex(bars: Int) throws(LayoutError) -> Int {
    if let index = layouts.firstIndex(where: { $0.barCount == bars }) { return index }
    let processor = try BarProcessor(
      totalBars: bars, channels: configuration.channels.count, configuration: configuration,
      sizes: analyzer.sizes)
    processor.setFrameRate(frameRate)
    layouts.append(processor)
    let display = UnsafeMutableBufferPointer<Float>.allocate(capacity: bars)
    // Drawn from the scene at once, so a layout's first frame (a daemon started with
    // nothing playing) is the picture the scene shows now: the rest heights, not zeros.
    display.initialize(repeating: 0)
    scene.composeBars(live: processor.heights, into: display)
    displayBars.append(display)
    return layouts.count - 1
  }

  /// The rate the consumers need: the fastest one's (a consumer without a rate of its own
  /// wants `configuration.fps`), never above `configuration.fps`; `configuration.fps` while
  /// there are none. A daemon whose only clients ask 30 lines a second analyses 30 frames.
  package var wantedFrameRate: Int {
    ConsumerKey.frameRate(for: consumers.map(\.key), maximum: configuration.fps)
  }

  /// Analyses `fps` frames a second from now on (clamped to 1…`configuration.fps`): each frame
  /// is `1/fps` s of audio. The analysis, the bars' smoothing and gain and the scene go on
  /// from where they are, and each consumer keeps its own schedule, so a consumer's lines go
  /// on with no gap and no burst.
  package func setFrameRate(_ fps: Int) {
    let fps = min(max(1, fps), configuration.fps)
    guard fps != frameRate else { return }
    frameRate = fps
    hopFrames = max(1, sampleRate / fps)
    analyzer.setFrameRate(fps)
    for layout in layouts { layout.setFrameRate(fps) }
    for index in consumers.indices { consumers[index].gate.slack = 0.5 / Double(fps) }
  }

  // MARK: - Frames

  /// Consumes one frame of interleaved audio (`hopFrames × channels` samples, or
  /// more when audio arrived late: all of it enters the history, one frame comes out).
  package func advance(audio: UnsafeBufferPointer<Float>, activity: StreamActivity) {
    analyzer.startFrame()
    analyzer.push(interleaved: audio)
    analyzer.analyze()
    signalPresent = analyzer.framePeak >= silenceLevel
    time += Double(audio.count / analyzer.channels) / Double(sampleRate)
    for layout in layouts { layout.process(analyzer, silent: !signalPresent) }
    scene.advance(
      to: time, activity: activity, signalPresent: signalPresent, onset: analyzer.onset,
      player: othersPlay ? nil : playerStatus)
    finishFrame()
  }

  /// Moves time on by `seconds` with no audio (the stream is corked or gone):
  /// the scene animates toward rest; the analyser keeps its last spectra.
  package func advanceWithoutAudio(by seconds: Double, activity: StreamActivity) {
    time += seconds
    signalPresent = false
    scene.advance(
      to: time, activity: activity, signalPresent: false, onset: false,
      player: othersPlay ? nil : playerStatus)
    finishFrame()
  }

  /// Hands the renderers the player, or none, as ``PlayerAttribution`` decides for the state
  /// now: per frame it only compares, and renderers hear of it only when it changes.
  private func attributePlayer(changed: Bool) {
    let shows = PlayerAttribution.showsPlayer(playerStatus, beside: scene.state)
    guard changed || shows != playerShown else { return }
    playerShown = shows
    for consumer in consumers { consumer.renderer.nowPlaying = shows ? nowPlaying : nil }
  }

  private func finishFrame() {
    frameCount += 1
    attributePlayer(changed: false)
    visibility.advance(to: time, state: scene.state, sound: signalPresent)
    for (index, layout) in layouts.enumerated() {
      scene.composeBars(live: layout.heights, into: displayBars[index])
    }
  }

  /// Renders every consumer once for this frame (the engine calls it once per frame,
  /// before the deliveries read ``changedLine(_:)``).
  package func renderConsumers(info: FrameInfo) {
    var info = info
    info.hidden = visibility.isHidden
    for index in consumers.indices {
      guard consumers[index].gate.admit(at: time) else {
        consumers[index].changed = false
        continue
      }
      let consumer = consumers[index]
      let bars = UnsafeBufferPointer(displayBars[consumer.layout])
      consumers[index].changed = consumer.renderer.render(scene: scene, bars: bars, info: info)
    }
  }

  /// Consumer `index`'s line if the last ``renderConsumers(info:)`` changed it, else `nil`.
  package func changedLine(_ index: Int) -> ByteLine? {
    consumers[index].changed ? consumers[index].renderer.line : nil
  }

  /// Consumer `index`'s current line, changed or not (the socket registry asks for it for a
  /// subscription that has never had a line); `nil` before its first render.
  package func currentLine(_ index: Int) -> ByteLine? {
    let line = consumers[index].renderer.line
    return line.bytes.isEmpty ? nil : line
  }

  /// The bars drawn for `bars` (the display buffer of that layout), if registered.
  package func displayedBars(count bars: Int) -> UnsafeBufferPointer<Float>? {
    guard let index = layouts.firstIndex(where: { $0.barCount == bars }) else { return nil }
    return UnsafeBufferPointer(displayBars[index])
  }

  /// The analyser's bars for `bars` before the scene blends in rest heights, if registered.
  package func liveBars(count bars: Int) -> UnsafeBufferPointer<Float>? {
    barProcessor(count: bars)?.heights
  }

  /// The processor of the layout with `bars` bars, if registered.
  package func barProcessor(count bars: Int) -> BarProcessor? {
    layouts.first { $0.barCount == bars }
  }

  /// Forgets the history after a stream switch (sink change, reconnect).
  package func resetAudio() { analyzer.reset() }

  /// The next frame's audio holds a source switch: when the sound goes on across it (a new
  /// stream opened amid sound; a hand-over while the scene plays, though the streams may leave
  /// a gap of a few frames between them), the step it makes is no onset, so no bubble rises
  /// from it. A hand-over while nothing plays is a start, and its onset counts.
  package func sourceSwitched(_ change: SourceSwitch) {
    if change == .newStream || scene.state == .playing { analyzer.reprimeOnsets() }
  }

  /// True while the picture still changes with no new audio, a consumer with a lower frame
  /// rate skipped a frame it has not caught up with, or the text is due to hide
  /// (`output.hide_after` runs on frames).
  package var isAnimating: Bool {
    scene.isAnimating || consumers.contains { $0.gate.owesFrame } || visibility.isPending
  }

  /// When a consumer's line next changes for the player's position, its lyric or a scrolling
  /// field alone (monotonic seconds, the clock of ``NowPlaying/positionTime``), or `nil`. The
  /// engine wakes then to render (for the position at most once a second, for the lyric's lines
  /// and a scrolling field's steps at most once a frame period; never while paused or stopped),
  /// passing the clock as ``FrameInfo/clock``.
  package func nextPositionChange(after clock: Double) -> Double? {
    var due =
      playerShown
      ? nowPlaying?.nextChange(
        showingPosition: consumers.contains { $0.renderer.showsPosition },
        showingLyric: consumers.contains { $0.renderer.showsLyric }, after: clock,
        framePeriod: 1 / Double(frameRate)) : nil
    // A scrolling field moves while the line plays, and stands still (no wake-ups) otherwise.
    guard scene.state == .playing else { return due }
    for consumer in consumers {
      guard let next = consumer.renderer.nextScrollStep(after: clock) else { continue }
      let step = max(next, clock + 1 / Double(frameRate))
      due = min(due ?? step, step)
    }
    return due
  }

}

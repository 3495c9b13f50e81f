/// The core's composition of its parts: the output's stream, the player's streams, and what
/// they publish together.
extension CaptureCore {
  /// Looks up what to record (the server's info first), while connected.
  mutating func describeServer() {
    if connection.isReady { actions.append(.describeServer) }
  }

  /// A lookup's answer: what the output records next (``OutputCapture``).
  mutating func described(_ event: CaptureEvent) {
    guard connection.isReady else { return }
    if case .serverDescribed(let onPipeWire, _) = event { connection.onPipeWire = onPipeWire }
    follow(
      output.described(
        event, namedSource: configuration.namedSource, at: now, wording: configuration.wording,
        actions: &actions))
  }

  /// Carries out what the output part decided.
  mutating func follow(_ next: OutputCapture.Next) {
    switch next {
    case .nothing: return
    case .updateActivity: break
    case .open(let source, let int16, let rate): return openOutput(source, int16: int16, rate: rate)
    case .close: closeOutput()
    case .nothingToRecord:
      closeOutput()
      publish { $0.sourceName = "" }
    }
    updateActivity()
  }

  /// Replaces the output's stream with one on `source`, corked while nothing plays, under a
  /// new generation.
  private mutating func openOutput(_ source: String, int16: Bool, rate: UInt32) {
    if let old = output.release() { actions.append(.close(old)) }
    guard connection.state != .none else { return output.follower.streamClosed() }
    lastStreamID += 1
    let request = output.opened(
      RecordStreamID(lastStreamID), source: source, int16: int16, rate: rate,
      onPipeWire: connection.onPipeWire, sampleRate: configuration.sampleRate,
      connected: connection.isReady, streams: serverStreams)
    startGeneration()
    actions.append(.open(request))
    updateActivity()
  }

  mutating func closeOutput() {
    if let id = output.close() { actions.append(.close(id)) }
  }

  /// Drops what was buffered and starts a new generation under the source now described;
  /// amid sound the switch is marked (the restart is no onset). Not while the player's streams
  /// deliver: the output's audio is not recorded, they play on wherever it goes, no reset.
  private mutating func startGeneration() {
    guard !player.recordsPlayer else { return }
    (published.sourceName, emitted.sourceName) = (describedSource, describedSource)
    actions.append(
      .startGeneration(markingSwitch: outputActivity == .running, sourceName: describedSource))
  }

  var outputActivity: StreamActivity {
    output.activity(connected: connection.isReady, streams: serverStreams)
  }

  /// Publishes the activity (the player's while its streams are recorded) and corks the
  /// output's stream while nothing runs. While the player's streams are recorded the output's
  /// stream still runs, its fragments dropped: its fragment sets how much the sink renders at
  /// a time (bench/README.md, `player`). pipewire-pulse runs its graph at its own quantum
  /// whatever a stream asks, so there the output's stream is corked.
  mutating func updateActivity() {
    let outputActivity = outputActivity
    let recordsPlayer = player.recordsPlayer
    publish { $0.activity = recordsPlayer ? .running : outputActivity }
    let instead = recordsPlayer && connection.onPipeWire
    output.cork(
      running: outputActivity == .running && !instead, playerRecorded: instead,
      wording: configuration.wording, actions: &actions)
  }

  /// A reload or the consumers changed the settings, in one event: a new format makes the
  /// streams again under the new scope; else a new scope is planned afresh, and streams on the
  /// steady fragment take its new size (PulseAudio only).
  mutating func reconfigured(scope: CaptureScope?, format: Bool, steadyFragment: Bool) {
    let scopeChanged = scope.map { player.scopeChanged($0) } ?? false
    if format, output.stream != nil, let source = output.follower.recorded {
      let sink = output.follower.monitoredSink
      player.closeAll(actions: &actions)
      closeOutput()
      follow(
        output.lookedUp(
          source, monitoring: sink, int16: output.int16, rate: output.sourceRate, at: now,
          wording: configuration.wording, actions: &actions))
      return reconcile()
    }
    if scopeChanged { reconcile() }
    guard steadyFragment, !connection.onPipeWire else { return }
    let streams = [output.stream?.fragment.isSteady == true ? output.stream?.id : nil]
    actions += (streams.compactMap { $0 } + player.steadyStreams).map { .setFragment($0, .steady) }
  }

  /// What json's `source` and `-v` say is recorded.
  var describedSource: String {
    player.target.describe(
      streamKind: configuration.wording.stream, output: output.follower.recorded ?? "")
  }
  /// Decides what to record from the player and the server's streams, opens and closes the
  /// player's streams to match, and publishes what is recorded.
  mutating func reconcile() {
    let plan = player.plan(
      serverStreams: serverStreams, known: connection.isReady,
      namedSource: configuration.namedSource != nil, monitoredSink: output.follower.monitoredSink,
      parentOf: configuration.parentOf)
    let opening = PlayerCapture.Opening(
      fragment: RecordFragment(
        sampleRate: configuration.sampleRate, onPipeWire: connection.onPipeWire, corked: false),
      size: connection.onPipeWire ? .quantum(graphRate: output.sourceRate) : .onset,
      int16: output.int16, followsMoves: configuration.recordingFollowsMoves,
      keepsPausedStreams: configuration.keepsPausedStreams)
    if player.apply(
      plan, serverStreams: serverStreams, opening: opening, nextID: &lastStreamID,
      wording: configuration.wording, actions: &actions) != nil
    {
      let target = player.target
      let what = target.streams.isEmpty ? output.follower.recorded ?? "nothing" : describedSource
      debug("\(target.reason); recording \(what)")
    }
    let described = describedSource
    publish {
      $0.sourceName = described
      $0.othersPlay = plan.othersPlay
    }
    updateActivity()
  }

  mutating func recordStreamReady(_ id: RecordStreamID) {
    guard !player.ready(id), output.ready(id) else { return }
    debug("record stream ready on \(output.follower.recorded ?? "?")")
    updateActivity()
  }

  /// A stream ended (`reason` `nil`: the server ended it) or could not be made. The output's
  /// is made again after the back-off. A player's ends when its playback stream moves to
  /// another sink (it is followed there) or goes; one refused is left to the output.
  mutating func recordStreamGone(_ id: RecordStreamID, reason: String?) {
    let wording = configuration.wording
    if player.drop(
      id, serverStreams: serverStreams, wording: wording, actions: &actions,
      why: { id in
        reason.map { "\($0); recording the output instead" }
          ?? "the record stream of \(wording.stream) \(id) ended"
      })
    {
      return reconcile()
    }
    guard output.stream?.id == id else { return }
    if let reason {
      log(reason)
    } else {
      debug("record stream ended; looking for the source again")
    }
    closeOutput()
    if reason == nil { publish { $0.activity = .none } }
    if connection.isReady { scheduleRetry() }
  }

  mutating func recordStreamMoved(_ id: RecordStreamID, to source: String?) {
    guard output.stream?.id == id else { return }
    if output.moved(to: source, at: now, wording: configuration.wording, actions: &actions) {
      startGeneration()
    }
  }

  /// A fragment arrived: a player's first is the hand-over; half a second of audio on the
  /// onset fragment asks for the steady one. Appends nothing otherwise (no allocation).
  mutating func fragment(_ id: RecordStreamID, frames: Int) {
    guard !output.recorded(id, frames: frames, actions: &actions) else { return }
    if player.recorded(id, frames: frames, wording: configuration.wording, actions: &actions) {
      updateActivity()
    }
  }
}

internal import CPulse
import PulseBarCore
import PulseBarSystem

/// One record stream on one sink input of the active player: the sink's monitor, limited to
/// that sink input's audio with `pa_stream_set_monitor_stream` (what `parec --monitor-stream`
/// does). Its callbacks find it through their `userdata`; the connection owns it.
final class PlayerRecordStream {
  unowned let connection: PulseConnection
  let stream: OpaquePointer
  /// The sink input it records, and the sink that input played into when it was made.
  let sinkInput: UInt32
  let sink: UInt32
  /// Its lane in the connection's ``StreamMixer``.
  var lane: Int
  /// Onset fragment first, steady once music plays (``RecordFragment``).
  var fragment: RecordFragment
  /// It records s16 (the sink's own format), converted on arrival; else float.
  let isInt16: Bool
  /// It has delivered audio (see ``PulseConnection/recordsPlayer``).
  var delivered = false

  init(
    connection: PulseConnection, stream: OpaquePointer, sinkInput: UInt32, sink: UInt32, lane: Int,
    fragment: RecordFragment, isInt16: Bool
  ) {
    self.isInt16 = isInt16
    self.connection = connection
    self.stream = stream
    self.sinkInput = sinkInput
    self.sink = sink
    self.lane = lane
    self.fragment = fragment
  }

  var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  static func from(_ userdata: UnsafeMutableRawPointer?) -> PlayerRecordStream {
    Unmanaged<PlayerRecordStream>.fromOpaque(userdata!).takeUnretainedValue()
  }
}

// MARK: - Recording the active player's streams

extension PulseConnection {
  /// The active MPRIS player changed (or started or stopped playing): record what now belongs
  /// to it.
  func follow(player: PlayerAudioIdentity?) {
    assertOnLoop()
    guard player != self.player else { return }
    self.player = player
    reconcileScope()
  }

  /// `input.scope` changed on a reload.
  func scopeChanged(_ scope: CaptureScope) {
    assertOnLoop()
    guard scope != selection.scope else { return }
    selection.scope = scope
    reconcileScope()
  }

  /// Decides what to record (``PlayerStreamSelection``) from the player and the sink inputs,
  /// then makes and closes the player's record streams to match, corks or uncorks the output's
  /// own stream, and says what is recorded. Runs on every change of either; a change that
  /// changes nothing costs a look at the table.
  ///
  /// A named source (`--input pulse:NAME`) ignores the scope: it records what it names.
  func reconcileScope() {
    // A named source records what it names; without a connection the table is empty.
    let serverStreams = settings.sourceName == nil && isReady ? sinkInputs.playbackStreams() : nil
    let plan = PlayerCapturePlan(
      selection: settings.sourceName == nil ? selection : PlayerStreamSelection(scope: .output),
      player: player, streams: serverStreams?.filter { !failedInputs.contains($0.id) },
      onOutput: follower.monitoredSink.map { sinkInputs.playbackStreams(onSink: $0) })
    let changed = plan.apply(
      to: playerStreams, stream: \.sinkInput,
      stale: { sinkInputs.sink(of: $0.sinkInput) != $0.sink }, close: closePlayerStream,
      open: openPlayerStream)
    if changed {
      // Lanes follow the streams' order; what a lane had queued is dropped with the old set.
      mixer.reset(lanes: playerStreams.count)
      for (lane, recorded) in playerStreams.enumerated() { recorded.lane = lane }
    }
    if plan.target != target {
      target = plan.target
      let what = target.streams.isEmpty ? follower.recorded ?? "nothing" : describedSource
      debug?("PulseAudio: \(target.reason); recording \(what)")
    }
    let described = describedSource
    buffer.updateStatus {
      $0.sourceName = described
      $0.othersPlay = plan.othersPlay
    }
    updateActivity()
  }

  /// What json's `source` and `-v` say is recorded: the player's sink inputs, or the monitor
  /// and why.
  var describedSource: String {
    target.describe(streamKind: "sink input", output: follower.recorded ?? "")
  }

  /// The player's streams are recorded: one of them has delivered audio, so the output's own
  /// fragments are dropped from then on. Until the first arrives (a stream slow to start, or
  /// one the server never feeds) the output goes on showing, so a switch leaves no silence.
  var recordsPlayer: Bool {
    if case .player = target { return playerStreams.contains { $0.delivered } }
    return false
  }

  /// Makes a record stream for `sinkInput` on its sink's monitor; false when it cannot (the
  /// sink input is marked failed until it changes, so the output is recorded meanwhile).
  private func openPlayerStream(_ sinkInput: UInt32) -> Bool {
    guard let context, let sink = sinkInputs.sink(of: sinkInput) else { return false }
    // The sink's own format, as the output's stream takes it (s16 is converted here, not by
    // the server on every fragment).
    var spec = pa_sample_spec(
      format: streamIsInt16 ? Self.int16NativeEndian : Self.float32NativeEndian,
      rate: UInt32(settings.sampleRate), channels: UInt8(settings.channels))
    guard let stream = pa_stream_new(context, "pulsebar capture (player)", &spec, nil) else {
      return markFailed(sinkInput, "cannot create a record stream: \(errorText(context))")
    }
    guard pa_stream_set_monitor_stream(stream, sinkInput) == 0 else {
      pa_stream_unref(stream)
      return markFailed(sinkInput, "cannot record sink input \(sinkInput) alone")
    }
    let fragment = RecordFragment(
      adapts: !onPipeWire,
      steadyAfterFrames: Int(PulseSource.Settings.steadyAfterSeconds * Double(settings.sampleRate)),
      corked: false)
    let recorded = PlayerRecordStream(
      connection: self, stream: stream, sinkInput: sinkInput, sink: sink,
      lane: playerStreams.count, fragment: fragment, isInt16: streamIsInt16)
    pa_stream_set_state_callback(
      stream,
      { stream, userdata in
        let recorded = PlayerRecordStream.from(userdata)
        recorded.connection.playerStreamStateChanged(recorded)
      }, recorded.userdata)
    pa_stream_set_read_callback(
      stream,
      { _, _, userdata in
        let recorded = PlayerRecordStream.from(userdata)
        recorded.connection.playerStreamReadable(recorded)
      }, recorded.userdata)
    let recordsInt16 = streamIsInt16
    var attributes = bufferAttributes(
      steady: fragment.isSteady, bytesPerSample: recordsInt16 ? 2 : 4,
      graphRate: onPipeWire ? Int(sourceRate) : nil)
    let flags = PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_DONT_INHIBIT_AUTO_SUSPEND.rawValue
    // No device: the server records the monitor of the sink the sink input plays into.
    guard
      pa_stream_connect_record(stream, nil, &attributes, pa_stream_flags_t(rawValue: flags)) >= 0
    else {
      pa_stream_unref(stream)
      return markFailed(sinkInput, "cannot record sink input \(sinkInput): \(errorText(context))")
    }
    playerStreams.append(recorded)
    debug?("PulseAudio: recording sink input \(sinkInput) on sink #\(sink)")
    return true
  }

  /// Notes a sink input that cannot be recorded alone; it is tried again once it changes.
  private func markFailed(_ sinkInput: UInt32, _ reason: String) -> Bool {
    debug?("PulseAudio: \(reason); recording the output instead")
    failedInputs.insert(sinkInput)
    return false
  }

  /// Disconnects and frees one of the player's record streams.
  func closePlayerStream(_ recorded: PlayerRecordStream) {
    let stream = recorded.stream
    pa_stream_set_state_callback(stream, nil, nil)
    pa_stream_set_read_callback(stream, nil, nil)
    let state = pa_stream_get_state(stream)
    if state == PA_STREAM_READY || state == PA_STREAM_CREATING { pa_stream_disconnect(stream) }
    pa_stream_unref(stream)
    playerStreams.removeAll { $0 === recorded }
  }

  /// Closes every player stream (the connection is lost, or the daemon stops).
  func closePlayerStreams() {
    for recorded in playerStreams { closePlayerStream(recorded) }
    if case .player = target { target = .output(.noPlayer) }
  }

  /// A player stream ended: the server kills a monitor stream when its sink input moves to
  /// another sink or goes. Look again: a moved input is recorded on its new sink.
  private func playerStreamStateChanged(_ recorded: PlayerRecordStream) {
    assertOnLoop()
    switch pa_stream_get_state(recorded.stream) {
    case PA_STREAM_FAILED, PA_STREAM_TERMINATED:
      debug?("PulseAudio: the record stream of sink input \(recorded.sinkInput) ended")
      closePlayerStream(recorded)
      if sinkInputs.sink(of: recorded.sinkInput) == recorded.sink {
        // Still there on the same sink, yet refused: do not try again until it changes.
        failedInputs.insert(recorded.sinkInput)
      }
      reconcileScope()
    default: break
    }
  }

  /// One lane's samples through the mixer into the buffer.
  private func mix(_ samples: UnsafeBufferPointer<Float>, lane: Int) {
    let channels = settings.channels
    mixer.write(samples, lane: lane) { mixed in
      buffer.write(mixed, channels: channels, wakingTheReader: false)
    }
  }

  /// The read callback of a player stream: its fragments, through the mixer, into the buffer.
  /// Allocates nothing.
  private func playerStreamReadable(_ recorded: PlayerRecordStream) {
    let stream = recorded.stream
    while true {
      var data: UnsafeRawPointer?
      var length = 0
      guard pa_stream_peek(stream, &data, &length) == 0, length > 0 else { return }
      let bytesPerSample = recorded.isInt16 ? 2 : 4
      if !recorded.delivered {
        // The hand-over: the output's fragments stop here, and the activity is the player's.
        recorded.delivered = true
        debug?("PulseAudio: sink input \(recorded.sinkInput) delivers; the output's audio stops")
        updateActivity()
      }
      if let data, recordsPlayer {
        if recorded.isInt16 {
          convert(
            UnsafeBufferPointer(start: data.assumingMemoryBound(to: Int16.self), count: length / 2)
          ) { mix($0, lane: recorded.lane) }
        } else {
          mix(
            UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: length / 4),
            lane: recorded.lane)
        }
      }
      pa_stream_drop(stream)
      if recorded.fragment.recorded(
        frames: length / (bytesPerSample * settings.channels),
        streamReady: pa_stream_get_state(stream) == PA_STREAM_READY)
      {
        var attributes = bufferAttributes(
          steady: true, bytesPerSample: bytesPerSample, graphRate: nil)
        release(pa_stream_set_buffer_attr(stream, &attributes, nil, nil))
      }
    }
  }
}

internal import CPulse
import PulseBarCore
import PulseBarSystem

/// One record stream on one sink input of the active player: the sink's monitor, limited to
/// that sink input's audio with `pa_stream_set_monitor_stream` (what `parec --monitor-stream`
/// does). Its callbacks find it through their `userdata`; the stream set owns it.
final class PlayerRecordStream: PulseCallbackTarget {
  unowned let streamSet: PulsePlayerStreamSet
  let stream: OpaquePointer
  /// The sink input it records, and the sink that input played into when it was made.
  let sinkInput: UInt32
  let sink: UInt32
  /// Its lane in the set's ``StreamMixer``.
  var lane: Int
  /// Onset fragment first, steady once music plays (``RecordFragment``).
  var fragment: RecordFragment
  /// It records s16 (the sink's own format), converted on arrival; else float.
  let isInt16: Bool
  /// It has delivered audio (see ``PulsePlayerStreamSet/recordsPlayer``).
  var delivered = false

  init(
    streamSet: PulsePlayerStreamSet, stream: OpaquePointer, sinkInput: UInt32, sink: UInt32,
    lane: Int, fragment: RecordFragment, isInt16: Bool
  ) {
    self.isInt16 = isInt16
    self.streamSet = streamSet
    self.stream = stream
    self.sinkInput = sinkInput
    self.sink = sink
    self.lane = lane
    self.fragment = fragment
  }
}

/// What the bars record under `input.scope`, and the record streams on the active player's
/// sink inputs while that is the player: ``PlayerCapturePlan`` decides from the player and the
/// sink-input table, one ``PlayerRecordStream`` a sink input, summed by a ``StreamMixer``;
/// sink inputs the server would not record alone wait until they change. The output's
/// fragments stop once one of the player's streams first delivers (``recordsPlayer``).
///
/// A type of its own because the set's streams live and fail apart from the output's stream
/// and share its connection only; the connection owns it.
final class PulsePlayerStreamSet {
  unowned let connection: PulseConnection
  /// What the bars record: the active player's sink inputs or the whole output.
  private var selection: PlayerStreamSelection
  /// The active MPRIS player, as the engine last said.
  private var player: PlayerAudioIdentity?
  /// What is recorded now, and why (``reconcile()``).
  private var target = CaptureTarget.output(.noPlayer)
  /// The record streams on the player's sink inputs, while ``target`` is the player.
  private var streams: [PlayerRecordStream] = []
  /// Sink inputs the server would not record alone; tried again once they change.
  var failedInputs: Set<UInt32> = []
  /// Sums the player's streams (stereo-sized; a stream may lag 50 ms behind the others).
  private let mixer: StreamMixer

  init(connection: PulseConnection) {
    self.connection = connection
    let settings = connection.settings
    selection = PlayerStreamSelection(scope: settings.scope)
    if settings.sourceName != nil || settings.scope == .output { target = .output(.scopeIsOutput) }
    mixer = StreamMixer(maximumLag: settings.sampleRate / 20 * CaptureFormat.maxChannels)
  }

  /// The active MPRIS player changed (or started or stopped playing): record what now belongs
  /// to it.
  func follow(player: PlayerAudioIdentity?) {
    connection.assertOnLoop()
    guard player != self.player else { return }
    self.player = player
    reconcile()
  }

  /// `input.scope` changed on a reload.
  func scopeChanged(_ scope: CaptureScope) {
    connection.assertOnLoop()
    guard scope != selection.scope else { return }
    selection.scope = scope
    reconcile()
  }

  /// Decides what to record (``PlayerStreamSelection``) from the player and the sink inputs,
  /// then makes and closes the player's record streams to match, corks or uncorks the output's
  /// own stream, and says what is recorded. Runs on every change of either; a change that
  /// changes nothing costs a look at the table.
  ///
  /// A named source (`--input pulse:NAME`) ignores the scope: it records what it names.
  func reconcile() {
    let settings = connection.settings
    let sinkInputs = connection.sinkInputs
    let follower = connection.resolver.follower
    // A named source records what it names; without a connection the table is empty.
    let serverStreams =
      settings.sourceName == nil && connection.isReady ? sinkInputs.playbackStreams() : nil
    let plan = PlayerCapturePlan(
      selection: settings.sourceName == nil ? selection : PlayerStreamSelection(scope: .output),
      player: player, streams: serverStreams?.filter { !failedInputs.contains($0.id) },
      onOutput: follower.monitoredSink.map { sinkInputs.playbackStreams(onSink: $0) })
    let changed = plan.apply(
      to: streams, stream: \.sinkInput,
      stale: { sinkInputs.sink(of: $0.sinkInput) != $0.sink }, close: closeStream,
      open: openStream)
    if changed {
      // Lanes follow the streams' order; what a lane had queued is dropped with the old set.
      mixer.reset(lanes: streams.count)
      for (lane, recorded) in streams.enumerated() { recorded.lane = lane }
    }
    if plan.target != target {
      target = plan.target
      let what = target.streams.isEmpty ? follower.recorded ?? "nothing" : describedSource
      connection.debug?("PulseAudio: \(target.reason); recording \(what)")
    }
    let described = describedSource
    connection.buffer.updateStatus {
      $0.sourceName = described
      $0.othersPlay = plan.othersPlay
    }
    connection.output.updateActivity()
  }

  /// What json's `source` and `-v` say is recorded: the player's sink inputs, or the monitor
  /// and why.
  var describedSource: String {
    target.describe(streamKind: "sink input", output: connection.resolver.follower.recorded ?? "")
  }

  /// The player's streams are recorded: one of them has delivered audio, so the output's own
  /// fragments are dropped from then on. Until the first arrives (a stream slow to start, or
  /// one the server never feeds) the output goes on showing, so a switch leaves no silence.
  var recordsPlayer: Bool {
    if case .player = target { return streams.contains { $0.delivered } }
    return false
  }

  /// Makes a record stream for `sinkInput` on its sink's monitor; false when it cannot (the
  /// sink input is marked failed until it changes, so the output is recorded meanwhile).
  private func openStream(_ sinkInput: UInt32) -> Bool {
    guard let context = connection.context, let sink = connection.sinkInputs.sink(of: sinkInput)
    else { return false }
    let settings = connection.settings
    // The sink's own format, as the output's stream takes it (s16 is converted here, not by
    // the server on every fragment).
    let recordsInt16 = connection.output.isInt16
    var spec = pa_sample_spec(
      format: PulseSampleConverter.format(int16: recordsInt16),
      rate: UInt32(settings.sampleRate), channels: UInt8(settings.channels))
    guard
      let stream = PulseRecordStream.new(context, name: "pulsebar capture (player)", spec: &spec)
    else {
      return markFailed(
        sinkInput, "cannot create a record stream: \(connection.errorText(context))")
    }
    guard pa_stream_set_monitor_stream(stream, sinkInput) == 0 else {
      pa_stream_unref(stream)
      return markFailed(sinkInput, "cannot record sink input \(sinkInput) alone")
    }
    let onPipeWire = connection.resolver.onPipeWire
    let fragment = RecordFragment(settings: settings, onPipeWire: onPipeWire, corked: false)
    let recorded = PlayerRecordStream(
      streamSet: self, stream: stream, sinkInput: sinkInput, sink: sink, lane: streams.count,
      fragment: fragment, isInt16: recordsInt16)
    pa_stream_set_state_callback(
      stream,
      { _, userdata in
        let recorded = PlayerRecordStream.from(userdata)
        recorded.streamSet.stateChanged(recorded)
      }, recorded.userdata)
    pa_stream_set_read_callback(
      stream,
      { _, _, userdata in
        let recorded = PlayerRecordStream.from(userdata)
        recorded.streamSet.readable(recorded)
      }, recorded.userdata)
    var attributes = settings.bufferAttributes(
      steady: fragment.isSteady, bytesPerSample: recordsInt16 ? 2 : 4,
      graphRate: onPipeWire ? Int(connection.resolver.sourceRate) : nil)
    let flags = PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_DONT_INHIBIT_AUTO_SUSPEND.rawValue
    // No device: the server records the monitor of the sink the sink input plays into.
    guard
      pa_stream_connect_record(stream, nil, &attributes, pa_stream_flags_t(rawValue: flags)) >= 0
    else {
      pa_stream_unref(stream)
      return markFailed(
        sinkInput, "cannot record sink input \(sinkInput): \(connection.errorText(context))")
    }
    streams.append(recorded)
    connection.debug?("PulseAudio: recording sink input \(sinkInput) on sink #\(sink)")
    return true
  }

  /// Notes a sink input that cannot be recorded alone; it is tried again once it changes.
  private func markFailed(_ sinkInput: UInt32, _ reason: String) -> Bool {
    connection.debug?("PulseAudio: \(reason); recording the output instead")
    failedInputs.insert(sinkInput)
    return false
  }

  /// Disconnects and frees one of the player's record streams.
  private func closeStream(_ recorded: PlayerRecordStream) {
    connection.free(stream: recorded.stream)
    streams.removeAll { $0 === recorded }
  }

  /// Closes every player stream (the connection is lost, or the daemon stops).
  func closeAll() {
    for recorded in streams { closeStream(recorded) }
    if case .player = target { target = .output(.noPlayer) }
  }

  /// A player stream ended: the server kills a monitor stream when its sink input moves to
  /// another sink or goes. Look again: a moved input is recorded on its new sink.
  private func stateChanged(_ recorded: PlayerRecordStream) {
    connection.assertOnLoop()
    switch pa_stream_get_state(recorded.stream) {
    case PA_STREAM_FAILED, PA_STREAM_TERMINATED:
      connection.debug?("PulseAudio: the record stream of sink input \(recorded.sinkInput) ended")
      closeStream(recorded)
      if connection.sinkInputs.sink(of: recorded.sinkInput) == recorded.sink {
        // Still there on the same sink, yet refused: do not try again until it changes.
        failedInputs.insert(recorded.sinkInput)
      }
      reconcile()
    default: break
    }
  }

  /// The steady fragment's size changed (``PulseConnection/analysisRateChanged(_:)``): streams
  /// already on it take the new size.
  func steadyFragmentChanged() {
    for recorded in streams where recorded.fragment.isSteady { askSteadyFragment(recorded) }
  }

  /// Asks the server for the steady fragment on one of the player's streams.
  private func askSteadyFragment(_ recorded: PlayerRecordStream) {
    var attributes = connection.settings.bufferAttributes(
      steady: true, bytesPerSample: recorded.isInt16 ? 2 : 4, graphRate: nil)
    connection.release(pa_stream_set_buffer_attr(recorded.stream, &attributes, nil, nil))
  }

  /// One lane's samples through the mixer into the buffer.
  private func mix(_ samples: UnsafeBufferPointer<Float>, lane: Int) {
    let channels = connection.settings.channels
    let buffer = connection.buffer
    mixer.write(samples, lane: lane) { mixed in
      buffer.write(mixed, channels: channels, wakingTheReader: false, origin: .player)
    }
  }

  /// The read callback of a player stream: its fragments, through the mixer, into the buffer.
  /// Allocates nothing.
  private func readable(_ recorded: PlayerRecordStream) {
    let stream = recorded.stream
    connection.converter.readFragments(
      of: stream, isInt16: recorded.isInt16, channels: connection.settings.channels,
      keep: {
        if !recorded.delivered {
          // The hand-over: the output's fragments stop here, and the activity is the player's.
          recorded.delivered = true
          connection.debug?(
            "PulseAudio: sink input \(recorded.sinkInput) delivers; the output's audio stops")
          connection.output.updateActivity()
        }
        return recordsPlayer
      },
      deliver: { mix($0, lane: recorded.lane) },
      dropped: { frames in
        if recorded.fragment.recorded(
          frames: frames, streamReady: pa_stream_get_state(stream) == PA_STREAM_READY)
        {
          askSteadyFragment(recorded)
        }
      })
  }
}

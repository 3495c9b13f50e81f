internal import CPulse
import PulseBarCore
import PulseBarSystem

/// The output's record stream: the source ``PulseSourceResolver`` found (the default sink's
/// monitor or the named source), in the source's own format when that is s16, corked while
/// nothing plays into the monitored sink, its fragment following the music
/// (``RecordFragment``); remade on a reload that changes channels or fps.
///
/// A type of its own because the stream's life (open, callbacks, fragment, cork, close) is one
/// concern whichever source it records. Its callbacks find it through their `userdata`, an
/// unretained pointer; the connection owns it, and clears the callbacks before the stream is
/// freed.
final class PulseOutputStream: PulseCallbackTarget {
  unowned let connection: PulseConnection
  private var stream: OpaquePointer?
  /// The current stream's fragment (onset or steady) and cork state.
  private var fragment = RecordFragment(adapts: false, steadyAfterFrames: 0, corked: false)
  /// The stream delivers s16 (the source's own format), converted on arrival.
  private(set) var isInt16 = false

  init(connection: PulseConnection) { self.connection = connection }

  private var settings: PulseSource.Settings { connection.settings }
  /// The resolver's: what the stream records.
  private var follower: DefaultSinkFollower {
    get { connection.resolver.follower }
    set { connection.resolver.follower = newValue }
  }

  /// Replaces the stream with one on `source`: s16 when that is the source's format (the
  /// server then passes its blocks through instead of converting every fragment), the onset
  /// fragment (or PipeWire's quantum, `rate` being the graph's), corked while nothing plays;
  /// then bumps the generation and drops stale audio.
  func open(source: String, format: pa_sample_format_t, rate: UInt32) {
    release()
    guard let context = connection.context else { return follower.streamClosed() }
    isInt16 = format == PulseSampleConverter.int16NativeEndian
    var spec = pa_sample_spec(
      format: PulseSampleConverter.format(int16: isInt16), rate: UInt32(settings.sampleRate),
      channels: UInt8(settings.channels))
    guard let stream = PulseRecordStream.new(context, name: "pulsebar capture", spec: &spec) else {
      connection.log("PulseAudio: cannot create a record stream: \(connection.errorText(context))")
      follower.streamClosed()
      connection.scheduleRetry()
      return
    }
    self.stream = stream
    pa_stream_set_state_callback(
      stream, { stream, userdata in PulseOutputStream.from(userdata).stateChanged(stream) },
      userdata)
    pa_stream_set_read_callback(
      stream, { stream, _, userdata in PulseOutputStream.from(userdata).readable(stream) },
      userdata)
    pa_stream_set_moved_callback(
      stream, { stream, userdata in PulseOutputStream.from(userdata).moved(stream) }, userdata)
    // PulseAudio: onset fragments until music has played a while (``RecordFragment``);
    // PipeWire: one quantum throughout. Eight steady fragments of slack before the server drops.
    let onPipeWire = connection.resolver.onPipeWire
    fragment = RecordFragment(
      settings: settings, onPipeWire: onPipeWire, corked: currentActivity() != .running)
    var attributes = settings.bufferAttributes(
      steady: fragment.isSteady, bytesPerSample: isInt16 ? 2 : 4,
      graphRate: onPipeWire ? Int(rate) : nil)
    var flags = PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_DONT_INHIBIT_AUTO_SUSPEND.rawValue
    if fragment.isCorked { flags |= PA_STREAM_START_CORKED.rawValue }
    // The server moves streams off the old default device when the default changes
    // (PulseAudio 15+). Following the default we move ourselves anyway; a named
    // source must stay where it was asked to be.
    if settings.sourceName != nil { flags |= PA_STREAM_DONT_MOVE.rawValue }
    startGeneration()
    if pa_stream_connect_record(stream, source, &attributes, pa_stream_flags_t(rawValue: flags))
      < 0
    {
      connection.log("PulseAudio: cannot record \(source): \(connection.errorText(context))")
      close()
      connection.scheduleRetry()
      return
    }
    updateActivity()
  }

  /// Drops the audio buffered so far and starts a new generation under the source now
  /// described, so the engine drops the old history; amid sound, a source switch is marked
  /// (the restart is no onset).
  private func startGeneration() {
    connection.buffer.discardAll()
    if currentActivity() == .running || connection.players.recordsPlayer {
      connection.buffer.markSourceSwitch()
    }
    let described = connection.players.describedSource
    connection.buffer.updateStatus {
      $0.sourceName = described
      $0.generation &+= 1
    }
  }

  private func stateChanged(_ changed: OpaquePointer?) {
    connection.assertOnLoop()
    guard let stream, changed == stream else { return }
    switch pa_stream_get_state(stream) {
    case PA_STREAM_READY:
      connection.debug?("PulseAudio: record stream ready on \(follower.recorded ?? "?")")
      updateActivity()
    case PA_STREAM_FAILED, PA_STREAM_TERMINATED:
      connection.debug?("PulseAudio: record stream ended; looking for the source again")
      // The source went away under us (or the server killed the stream): look again later.
      close()
      connection.buffer.updateStatus { $0.activity = .none }
      if connection.isReady { connection.scheduleRetry() }
    default: break
    }
  }

  /// The server moved the stream: note where it is now, and look up where it should be once
  /// the server has settled.
  private func moved(_ moved: OpaquePointer?) {
    connection.assertOnLoop()
    guard let stream, moved == stream else { return }
    let device = pa_stream_get_device_name(stream).map { String(cString: $0) }
    let lookUpAt = follower.streamMoved(to: device, at: monotonicSeconds())
    if let source = device {
      connection.debug?("PulseAudio: the server moved the record stream to \(source)")
      startGeneration()
      // Which sink the new monitor belongs to, so a player there uncorks the stream before
      // the default is looked up (``PulseSourceResolver``).
      connection.resolver.requestSourceInfo(source)
    }
    // The default is looked up once the server has settled (``DefaultSinkFollower``); a
    // default switch also sends a server event, which looks at once.
    connection.retryTimer.arm(at: lookUpAt)
  }

  /// The read callback: copy every readable fragment into the buffer and drop it.
  /// Runs once per fragment while recording, so it allocates nothing. The buffer's eventfd is
  /// not signalled: this runs inside the engine's own wait, which reads the buffer after it.
  private func readable(_ stream: OpaquePointer?) {
    guard let stream else { return }
    let channels = connection.settings.channels
    let buffer = connection.buffer
    connection.converter.readFragments(
      of: stream, isInt16: isInt16, channels: channels,
      // While the player's own streams are recorded, the output's fragments (the last ones
      // before its cork) are dropped, so two signals never interleave in the buffer.
      keep: { !connection.players.recordsPlayer },
      deliver: { buffer.write($0, channels: channels, wakingTheReader: false) },
      dropped: { frames in
        if fragment.recorded(
          frames: frames, streamReady: pa_stream_get_state(stream) == PA_STREAM_READY)
        {
          askFragment(steady: true)
        }
      })
  }

  // MARK: - Fragment size

  /// The steady fragment's size changed (``PulseConnection/analysisRateChanged(_:)``): a
  /// stream already on it takes the new size.
  func steadyFragmentChanged() {
    if fragment.isSteady { askFragment(steady: true) }
  }

  /// Asks the server for the onset or the steady fragment on the current stream, as
  /// ``RecordFragment`` decided.
  private func askFragment(steady: Bool) {
    guard let stream else { return }
    var attributes = settings.bufferAttributes(
      steady: steady, bytesPerSample: isInt16 ? 2 : 4, graphRate: nil)
    connection.debug?(
      "PulseAudio: fragment \(steady ? settings.steadyFrames : PulseSource.Settings.onsetFragmentFrames) frames (\(steady ? "music plays steadily" : "ready for the next onset"))"
    )
    connection.release(pa_stream_set_buffer_attr(stream, &attributes, nil, nil))
  }

  /// Records the same source again at `format` (a reload changed channels or fps): a stream's
  /// sample spec and fragment size are fixed when it is made. The connection, the followed
  /// sink and the sink-input table stay; only the stream is remade (and the generation bumped,
  /// so the engine drops the old history). Without a stream the next one simply uses `format`.
  func reformat(_ format: CaptureFormat) {
    connection.assertOnLoop()
    guard settings.channels != format.channels || settings.fps != format.fps else { return }
    connection.settings.channels = format.channels
    connection.settings.fps = format.fps
    guard stream != nil, let source = follower.recorded else { return }
    let sampleFormat = PulseSampleConverter.format(int16: isInt16)
    let sink = follower.monitoredSink
    close()
    connection.resolver.record(
      source: source, monitoring: sink, format: sampleFormat,
      rate: connection.resolver.sourceRate)
  }

  /// Closes the record stream, if any, without calling back into us.
  func close() {
    release()
    follower.streamClosed()
  }

  /// Disconnects and frees the record stream, if any, leaving what it recorded to the caller.
  private func release() {
    guard let stream else { return }
    pa_stream_set_moved_callback(stream, nil, nil)
    connection.free(stream: stream)
    self.stream = nil
  }

  // MARK: - Activity and corking

  /// What plays into the monitored sink; a source that is no monitor runs while recorded.
  func currentActivity() -> StreamActivity {
    guard connection.isReady else { return .none }
    if let sink = follower.monitoredSink { return connection.sinkInputs.activity(onSink: sink) }
    return stream == nil ? .none : .running
  }

  /// Publishes the activity and corks the stream while nothing runs (uncorks when something does).
  /// While the player's own streams are recorded, they are what plays; the output's stream
  /// still runs, its fragments dropped, because its fragment is what sets how much the sink
  /// renders at a time: a stream that records one sink input alone asks nothing of the sink,
  /// so without it the sink renders in the player's own small blocks, and the server and
  /// pulsebar wake far more often (figures: bench/README.md, `player`). pipewire-pulse runs its
  /// graph at its own quantum whatever a stream asks, so there the output's stream is corked.
  func updateActivity() {
    let outputActivity = currentActivity()
    let recordsPlayer = connection.players.recordsPlayer
    let activity = recordsPlayer ? .running : outputActivity
    connection.buffer.updateStatus { $0.activity = activity }
    guard let stream,
      let change = fragment.activityChanged(
        running: outputActivity == .running && !(recordsPlayer && connection.resolver.onPipeWire),
        streamReady: pa_stream_get_state(stream) == PA_STREAM_READY)
    else { return }
    let corked = change != .uncork
    connection.debug?(
      corked ? "PulseAudio: corked (no stream plays)" : "PulseAudio: uncorked (a stream plays)")
    // Corked, the stream takes the onset fragment back, so the next music shows at once.
    if change == .cork(onset: true) { askFragment(steady: false) }
    connection.release(pa_stream_cork(stream, corked ? 1 : 0, nil, nil))
  }
}

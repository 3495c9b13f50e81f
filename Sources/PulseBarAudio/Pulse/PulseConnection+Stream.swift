internal import CPulse
import PulseBarCore
import PulseBarSystem

// MARK: - Record stream

extension PulseConnection {
  /// `PA_SAMPLE_FLOAT32NE`, a C macro Swift does not import.
  static var float32NativeEndian: pa_sample_format_t {
    #if _endian(little)
      PA_SAMPLE_FLOAT32LE
    #else
      PA_SAMPLE_FLOAT32BE
    #endif
  }

  /// `PA_SAMPLE_S16NE`.
  static var int16NativeEndian: pa_sample_format_t {
    #if _endian(little)
      PA_SAMPLE_S16LE
    #else
      PA_SAMPLE_S16BE
    #endif
  }

  /// Records `source` (the monitor of `sink`, if it is one); recreates the stream
  /// only when the source changed, then bumps the generation and drops stale audio.
  ///
  /// A source whose own format is s16 is recorded as s16 and converted here: the
  /// server then passes its blocks through instead of converting every fragment. `rate` is
  /// the source's own rate: on PipeWire, the graph's, which sizes the fragment.
  func record(source: String, monitoring sink: UInt32?, format: pa_sample_format_t, rate: UInt32) {
    switch follower.lookedUp(source, monitoring: sink, at: monotonicSeconds()) {
    case .keepMove(let lookAgainAt):
      guard let lookAgainAt else { return }
      debug?(
        "PulseAudio: the server still names the sink of \(source) its default; looking again in 2 s"
      )
      armTimer(at: lookAgainAt)
      return
    case .keep(let sinkChanged):
      // A new sink under a stream the server already moved there.
      if sinkChanged { debugRecording(source, monitoring: sink) }
      sourceRate = rate
      updateActivity()
      return
    case .record:
      debugRecording(source, monitoring: sink)
      sourceRate = rate
    }
    releaseStream()
    openStream(source: source, format: format, rate: rate)
  }

  /// Makes and connects the record stream on `source`: s16 when that is the source's format,
  /// the onset fragment (or PipeWire's quantum), corked while nothing plays; a new generation.
  private func openStream(source: String, format: pa_sample_format_t, rate: UInt32) {
    guard let context else { return follower.streamClosed() }
    streamIsInt16 = format == Self.int16NativeEndian
    let bytesPerSample = streamIsInt16 ? 2 : 4
    var spec = pa_sample_spec(
      format: streamIsInt16 ? Self.int16NativeEndian : Self.float32NativeEndian,
      rate: UInt32(settings.sampleRate),
      channels: UInt8(settings.channels))
    guard let stream = pa_stream_new(context, "pulsebar capture", &spec, nil) else {
      log("PulseAudio: cannot create a record stream: \(errorText(context))")
      follower.streamClosed()
      scheduleRetry()
      return
    }
    self.stream = stream
    pa_stream_set_state_callback(
      stream, { stream, userdata in PulseConnection.from(userdata).streamStateChanged(stream) },
      userdata)
    pa_stream_set_read_callback(
      stream, { stream, _, userdata in PulseConnection.from(userdata).readable(stream) }, userdata)
    pa_stream_set_moved_callback(
      stream, { stream, userdata in PulseConnection.from(userdata).streamMoved(stream) }, userdata)
    // PulseAudio: onset fragments until music has played a while (``RecordFragment``);
    // PipeWire: one quantum throughout. Eight steady fragments of slack before the server drops.
    let graphRate = onPipeWire ? Int(rate) : nil
    fragment = RecordFragment(
      adapts: !onPipeWire,
      steadyAfterFrames: Int(PulseSource.Settings.steadyAfterSeconds * Double(settings.sampleRate)),
      corked: currentActivity() != .running)
    var attributes = bufferAttributes(
      steady: fragment.isSteady, bytesPerSample: bytesPerSample, graphRate: graphRate)
    var flags = PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_DONT_INHIBIT_AUTO_SUSPEND.rawValue
    if fragment.isCorked { flags |= PA_STREAM_START_CORKED.rawValue }
    // The server moves streams off the old default device when the default changes
    // (PulseAudio 15+). Following the default we move ourselves anyway; a named
    // source must stay where it was asked to be.
    if settings.sourceName != nil { flags |= PA_STREAM_DONT_MOVE.rawValue }
    buffer.discardAll()
    let described = describedSource
    buffer.updateStatus {
      $0.sourceName = described
      $0.generation &+= 1
    }
    if pa_stream_connect_record(stream, source, &attributes, pa_stream_flags_t(rawValue: flags))
      < 0
    {
      log("PulseAudio: cannot record \(source): \(errorText(context))")
      closeStream()
      scheduleRetry()
      return
    }
    updateActivity()
  }

  private func streamStateChanged(_ changed: OpaquePointer?) {
    assertOnLoop()
    guard let stream, changed == stream else { return }
    switch pa_stream_get_state(stream) {
    case PA_STREAM_READY:
      debug?("PulseAudio: record stream ready on \(follower.recorded ?? "?")")
      updateActivity()
    case PA_STREAM_FAILED, PA_STREAM_TERMINATED:
      debug?("PulseAudio: record stream ended; looking for the source again")
      // The source went away under us (or the server killed the stream): look again later.
      closeStream()
      buffer.updateStatus { $0.activity = .none }
      if isReady { scheduleRetry() }
    default: break
    }
  }

  /// The server moved the stream: note where it is now, and look up where it should be once
  /// the server has settled.
  private func streamMoved(_ moved: OpaquePointer?) {
    assertOnLoop()
    guard let stream, moved == stream else { return }
    let device = pa_stream_get_device_name(stream).map { String(cString: $0) }
    let lookUpAt = follower.streamMoved(to: device, at: monotonicSeconds())
    if let source = device {
      debug?("PulseAudio: the server moved the record stream to \(source)")
      buffer.discardAll()
      let described = describedSource
      buffer.updateStatus {
        $0.sourceName = described
        $0.generation &+= 1
      }
      // Which sink the new monitor belongs to, so a player there uncorks the stream before
      // the default is looked up (``sourceInfo``).
      requestSourceInfo(source)
    }
    // The default is looked up once the server has settled (``DefaultSinkFollower``); a
    // default switch also sends a server event, which looks at once.
    armTimer(at: lookUpAt)
  }

  /// The `-v` line that says what the stream records.
  func debugRecording(_ source: String, monitoring sink: UInt32?) {
    debug?(
      "PulseAudio: recording \(source)" + (sink.map { " (the monitor of sink #\($0))" } ?? ""))
  }

  /// The read callback: copy every readable fragment into the buffer and drop it.
  /// Runs once per fragment while recording, so it allocates nothing. The buffer's eventfd is
  /// not signalled: this runs inside the engine's own wait, which reads the buffer after it.
  private func readable(_ stream: OpaquePointer?) {
    guard let stream else { return }
    while true {
      var data: UnsafeRawPointer?
      var length = 0
      guard pa_stream_peek(stream, &data, &length) == 0, length > 0 else { return }
      // While the player's own streams are recorded, the output's fragments (the last ones
      // before its cork) are dropped, so two signals never interleave in the buffer.
      if let data, !recordsPlayer {
        if streamIsInt16 {
          writeConverting(
            UnsafeBufferPointer(
              start: data.assumingMemoryBound(to: Int16.self), count: length / 2))
        } else {
          buffer.write(
            UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: length / 4),
            channels: settings.channels, wakingTheReader: false)
        }
      }
      // A hole (no data, non-zero length) is dropped like data.
      pa_stream_drop(stream)
      let frames = length / ((streamIsInt16 ? 2 : 4) * settings.channels)
      if fragment.recorded(
        frames: frames, streamReady: pa_stream_get_state(stream) == PA_STREAM_READY)
      {
        askFragment(steady: true)
      }
    }
  }

  // MARK: - Fragment size

  /// The record stream's buffer attributes with the onset or the steady fragment.
  func bufferAttributes(steady: Bool, bytesPerSample: Int, graphRate: Int?)
    -> pa_buffer_attr
  {
    typealias Settings = PulseSource.Settings
    let fragment = settings.fragmentBytes(
      frames: steady ? settings.steadyFrames : Settings.onsetFragmentFrames,
      bytesPerSample: bytesPerSample, pipeWireGraphRate: graphRate)
    let slack = settings.fragmentBytes(bytesPerSample: bytesPerSample, pipeWireGraphRate: graphRate)
    return pa_buffer_attr(
      maxlength: slack * 8, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
      fragsize: fragment)
  }

  /// The engine analyses at `rate` frames a second now: streams already on the steady
  /// fragment take the new size (``PulseSource/Settings/steadyFrames``).
  func analysisRateChanged(_ rate: Int) {
    assertOnLoop()
    let before = settings.steadyFrames
    settings.analysisRate = rate
    // On PipeWire the fragment is the graph's quantum whatever the rate.
    guard settings.steadyFrames != before, !onPipeWire else { return }
    if fragment.isSteady { askFragment(steady: true) }
    for recorded in playerStreams where recorded.fragment.isSteady {
      var attributes = bufferAttributes(
        steady: true, bytesPerSample: recorded.isInt16 ? 2 : 4, graphRate: nil)
      release(pa_stream_set_buffer_attr(recorded.stream, &attributes, nil, nil))
    }
  }

  /// Asks the server for the onset or the steady fragment on the current stream, as
  /// ``RecordFragment`` decided.
  private func askFragment(steady: Bool) {
    guard let stream else { return }
    var attributes = bufferAttributes(
      steady: steady, bytesPerSample: streamIsInt16 ? 2 : 4, graphRate: nil)
    debug?(
      "PulseAudio: fragment \(steady ? settings.steadyFrames : PulseSource.Settings.onsetFragmentFrames) frames (\(steady ? "music plays steadily" : "ready for the next onset"))"
    )
    release(pa_stream_set_buffer_attr(stream, &attributes, nil, nil))
  }

  /// Converts s16 samples to float through the preallocated scratch and writes them.
  private func writeConverting(_ samples: UnsafeBufferPointer<Int16>) {
    let channels = settings.channels
    convert(samples) { buffer.write($0, channels: channels, wakingTheReader: false) }
  }

  /// Converts s16 samples to float through the preallocated scratch, a scratchful at a time
  /// (whole sample frames), and hands each on to `body`.
  func convert(
    _ samples: UnsafeBufferPointer<Int16>, _ body: (UnsafeBufferPointer<Float>) -> Void
  ) {
    var offset = 0
    while offset < samples.count {
      let count = min(scratch.count, samples.count - offset)
      for index in 0..<count { scratch[index] = Float(samples[offset + index]) * (1 / 32768) }
      body(UnsafeBufferPointer(rebasing: scratch[..<count]))
      offset += count
    }
  }

  /// Records the same source again at `format` (a reload changed channels or fps): a stream's
  /// sample spec and fragment size are fixed when it is made. The connection, the followed
  /// sink and the sink-input table stay; only the stream is remade (and the generation bumped,
  /// so the engine drops the old history). Without a stream the next one simply uses `format`.
  func reformat(_ format: CaptureFormat) {
    assertOnLoop()
    guard settings.channels != format.channels || settings.fps != format.fps else { return }
    settings.channels = format.channels
    settings.fps = format.fps
    guard stream != nil, let source = follower.recorded else { return }
    let sampleFormat = streamIsInt16 ? Self.int16NativeEndian : Self.float32NativeEndian
    let sink = follower.monitoredSink
    closeStream()
    record(source: source, monitoring: sink, format: sampleFormat, rate: sourceRate)
  }

  /// Closes the record stream, if any, without calling back into us.
  func closeStream() {
    releaseStream()
    follower.streamClosed()
  }

  /// Disconnects and frees the record stream, if any, leaving what it recorded to the caller.
  private func releaseStream() {
    guard let stream else { return }
    pa_stream_set_state_callback(stream, nil, nil)
    pa_stream_set_read_callback(stream, nil, nil)
    pa_stream_set_moved_callback(stream, nil, nil)
    let state = pa_stream_get_state(stream)
    if state == PA_STREAM_READY || state == PA_STREAM_CREATING {
      pa_stream_disconnect(stream)
    }
    pa_stream_unref(stream)
    self.stream = nil
  }

  // MARK: - Activity and corking

  /// What plays into the monitored sink; a source that is no monitor runs while recorded.
  func currentActivity() -> StreamActivity {
    guard isReady else { return .none }
    if let sink = follower.monitoredSink { return sinkInputs.activity(onSink: sink) }
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
    let activity = recordsPlayer ? .running : outputActivity
    buffer.updateStatus { $0.activity = activity }
    guard let stream,
      let change = fragment.activityChanged(
        running: outputActivity == .running && !(recordsPlayer && onPipeWire),
        streamReady: pa_stream_get_state(stream) == PA_STREAM_READY)
    else { return }
    let corked = change != .uncork
    debug?(
      corked ? "PulseAudio: corked (no stream plays)" : "PulseAudio: uncorked (a stream plays)")
    // Corked, the stream takes the onset fragment back, so the next music shows at once.
    if change == .cork(onset: true) { askFragment(steady: false) }
    release(pa_stream_cork(stream, corked ? 1 : 0, nil, nil))
  }
}

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
    if keepsServerMove(lookedUp: source) { return }
    // A new target, or a new sink under a stream the server already moved there.
    if stream == nil || streamSource != source || monitoredSink != sink {
      debugRecording(source, monitoring: sink)
    }
    monitoredSink = sink
    sourceRate = rate
    if stream != nil, streamSource == source {
      updateActivity()
      return
    }
    closeStream()
    guard let context else { return }
    streamIsInt16 = format == Self.int16NativeEndian
    let bytesPerSample = streamIsInt16 ? 2 : 4
    var spec = pa_sample_spec(
      format: streamIsInt16 ? Self.int16NativeEndian : Self.float32NativeEndian,
      rate: UInt32(settings.sampleRate),
      channels: UInt8(settings.channels))
    guard let stream = pa_stream_new(context, "pulsebar capture", &spec, nil) else {
      log("PulseAudio: cannot create a record stream: \(errorText(context))")
      scheduleRetry()
      return
    }
    self.stream = stream
    streamSource = source
    pa_stream_set_state_callback(
      stream, { stream, userdata in PulseConnection.from(userdata).streamStateChanged(stream) },
      userdata)
    pa_stream_set_read_callback(
      stream, { stream, _, userdata in PulseConnection.from(userdata).readable(stream) }, userdata)
    pa_stream_set_moved_callback(
      stream, { stream, userdata in PulseConnection.from(userdata).streamMoved(stream) }, userdata)
    // PulseAudio: onset fragments until music has played a while (``growFragmentWhenSteady``);
    // PipeWire: one quantum throughout. Eight steady fragments of slack before the server drops.
    let graphRate = onPipeWire ? Int(rate) : nil
    var attributes = bufferAttributes(
      steady: !adaptsFragment, bytesPerSample: bytesPerSample, graphRate: graphRate)
    fragmentIsSteady = !adaptsFragment
    framesTowardSteady = 0
    streamCorked = currentActivity() != .running
    var flags = PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_DONT_INHIBIT_AUTO_SUSPEND.rawValue
    if streamCorked { flags |= PA_STREAM_START_CORKED.rawValue }
    // The server moves streams off the old default device when the default changes
    // (PulseAudio 15+). Following the default we move ourselves anyway; a named
    // source must stay where it was asked to be.
    if settings.sourceName != nil { flags |= PA_STREAM_DONT_MOVE.rawValue }
    buffer.discardAll()
    buffer.updateStatus {
      $0.sourceName = source
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
      debug?("PulseAudio: record stream ready on \(streamSource ?? "?")")
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
    if let device = pa_stream_get_device_name(stream) {
      let source = String(cString: device)
      debug?("PulseAudio: the server moved the record stream to \(source)")
      if settings.sourceName == nil { serverMove = ServerMove(to: source, from: streamSource) }
      streamSource = source
      buffer.discardAll()
      buffer.updateStatus {
        $0.sourceName = source
        $0.generation &+= 1
      }
      // Which sink the new monitor belongs to, so a player there uncorks the stream before
      // the default is looked up (``sourceInfo``).
      requestSourceInfo(source)
    }
    // Where the stream should be is looked up once the server has settled, not at once:
    // pipewire-pulse can move the stream (WirePlumber following a `wpctl set-default`) before
    // its server info names the new default, and a look at once got the old one and recorded
    // it by name, a stream that no longer follows the default (seen on a loaded CI machine:
    // the old sink's monitor for good). A default switch also sends a server event, which
    // looks at once; a stream moved elsewhere by hand goes back after this delay.
    armTimer(after: Self.settleAfterMove)
  }

  /// The `-v` line that says what the stream records.
  func debugRecording(_ source: String, monitoring sink: UInt32?) {
    debug?(
      "PulseAudio: recording \(source)" + (sink.map { " (the monitor of sink #\($0))" } ?? ""))
  }

  /// How long after a move the default sink is looked up (see ``streamMoved(_:)``).
  static let settleAfterMove = 0.5

  /// How long after a lookup that overruled a server move the default is looked up again
  /// before the stream goes back (see ``keepsServerMove(lookedUp:)``).
  static let confirmOverruledMove = 2.0

  /// Whether a lookup of the default that found `source` leaves the stream where the server
  /// moved it (for now), rather than recording `source`.
  ///
  /// pipewire-pulse can name the old default for a while after WirePlumber moved our stream to
  /// the new one (a CI run: moved to pb_sink_b's monitor, the lookup half a second later still
  /// named pb_sink_a, and no server event followed): going back at once recorded the old sink
  /// for good. So a lookup that names the sink the stream was moved away from is trusted only
  /// when a second one, two seconds later, says the same; then the stream goes back (a stream
  /// moved by hand returns to the default's monitor, 2.5 s after the move). A lookup that
  /// agrees with the move, or names a third source, ends the wait.
  func keepsServerMove(lookedUp source: String) -> Bool {
    guard let move = serverMove else { return false }
    guard source != move.to, source == move.from else {
      serverMove = nil
      return false
    }
    let now = monotonicSeconds()
    let confirmAfter = Self.confirmOverruledMove
    guard let overruledAt = move.overruledAt else {
      serverMove?.overruledAt = now
      debug?(
        "PulseAudio: the server still names the sink of \(source) its default; looking again in 2 s"
      )
      armTimer(after: Self.confirmOverruledMove)
      return true
    }
    // A lookup another event asked for meanwhile; the timer's comes later.
    if now - overruledAt < confirmAfter * 0.9 { return true }
    serverMove = nil
    return false
  }

  /// The read callback: copy every readable fragment into the buffer and drop it.
  /// Runs once per fragment while recording, so it allocates nothing.
  private func readable(_ stream: OpaquePointer?) {
    guard let stream else { return }
    while true {
      var data: UnsafeRawPointer?
      var length = 0
      guard pa_stream_peek(stream, &data, &length) == 0, length > 0 else { return }
      if let data {
        if streamIsInt16 {
          writeConverting(
            UnsafeBufferPointer(
              start: data.assumingMemoryBound(to: Int16.self), count: length / 2))
        } else {
          buffer.write(
            UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: length / 4),
            channels: settings.channels, wakingTheReader: wakesReader)
        }
      }
      // A hole (no data, non-zero length) is dropped like data.
      pa_stream_drop(stream)
      growFragmentWhenSteady(afterBytes: length)
    }
  }

  // MARK: - Fragment size

  /// The fragment changes with the music on PulseAudio only: pipewire-pulse would turn an
  /// onset fragment into a lower quantum for the whole desktop.
  var adaptsFragment: Bool { !onPipeWire }

  /// The record stream's buffer attributes with the onset or the steady fragment.
  private func bufferAttributes(steady: Bool, bytesPerSample: Int, graphRate: Int?)
    -> pa_buffer_attr
  {
    typealias Settings = PulseSource.Settings
    let fragment = settings.fragmentBytes(
      frames: steady ? Settings.steadyFragmentFrames : Settings.onsetFragmentFrames,
      bytesPerSample: bytesPerSample, pipeWireGraphRate: graphRate)
    let slack = settings.fragmentBytes(bytesPerSample: bytesPerSample, pipeWireGraphRate: graphRate)
    return pa_buffer_attr(
      maxlength: slack * 8, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
      fragsize: fragment)
  }

  /// Counts recorded audio while the onset fragment is in use, and once
  /// ``PulseSource/Settings/steadyAfterSeconds`` of it arrived asks the server for the steady
  /// fragment: the fast onset is paid for half a second, the light server for the rest of the
  /// music.
  private func growFragmentWhenSteady(afterBytes bytes: Int) {
    guard !fragmentIsSteady else { return }
    framesTowardSteady += bytes / ((streamIsInt16 ? 2 : 4) * settings.channels)
    let steadyAfter = PulseSource.Settings.steadyAfterSeconds * Double(settings.sampleRate)
    guard Double(framesTowardSteady) >= steadyAfter else { return }
    setFragment(steady: true)
  }

  /// Asks the server for the onset or the steady fragment on the current stream.
  func setFragment(steady: Bool) {
    guard adaptsFragment, let stream, fragmentIsSteady != steady,
      pa_stream_get_state(stream) == PA_STREAM_READY
    else { return }
    fragmentIsSteady = steady
    framesTowardSteady = 0
    var attributes = bufferAttributes(
      steady: steady, bytesPerSample: streamIsInt16 ? 2 : 4, graphRate: nil)
    debug?(
      "PulseAudio: fragment \(steady ? PulseSource.Settings.steadyFragmentFrames : PulseSource.Settings.onsetFragmentFrames) frames (\(steady ? "music plays steadily" : "ready for the next onset"))"
    )
    release(pa_stream_set_buffer_attr(stream, &attributes, nil, nil))
  }

  /// Converts s16 samples to float through the preallocated scratch and writes them.
  private func writeConverting(_ samples: UnsafeBufferPointer<Int16>) {
    var offset = 0
    while offset < samples.count {
      let count = min(scratch.count, samples.count - offset)
      for index in 0..<count { scratch[index] = Float(samples[offset + index]) * (1 / 32768) }
      buffer.write(
        UnsafeBufferPointer(rebasing: scratch[..<count]), channels: settings.channels,
        wakingTheReader: wakesReader)
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
    guard stream != nil, let source = streamSource else { return }
    let sampleFormat = streamIsInt16 ? Self.int16NativeEndian : Self.float32NativeEndian
    closeStream()
    record(source: source, monitoring: monitoredSink, format: sampleFormat, rate: sourceRate)
  }

  /// Closes the record stream, if any, without calling back into us.
  func closeStream() {
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
    streamSource = nil
    serverMove = nil
  }

  // MARK: - Activity and corking

  /// What plays into the monitored sink; a source that is no monitor runs while recorded.
  func currentActivity() -> StreamActivity {
    guard isReady else { return .none }
    if let monitoredSink { return sinkInputs.activity(onSink: monitoredSink) }
    return stream == nil ? .none : .running
  }

  /// Publishes the activity and corks the stream while nothing runs (uncorks when something does).
  func updateActivity() {
    let activity = currentActivity()
    buffer.updateStatus { $0.activity = activity }
    let corked = activity != .running
    guard let stream, corked != streamCorked, pa_stream_get_state(stream) == PA_STREAM_READY
    else { return }
    streamCorked = corked
    debug?(
      corked ? "PulseAudio: corked (no stream plays)" : "PulseAudio: uncorked (a stream plays)")
    // Corked, the stream takes the onset fragment back, so the next music shows at once.
    if corked { setFragment(steady: false) }
    framesTowardSteady = 0
    release(pa_stream_cork(stream, corked ? 1 : 0, nil, nil))
  }
}

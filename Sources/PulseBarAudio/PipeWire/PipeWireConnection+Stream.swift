internal import CPipeWire
import PulseBarCore

// MARK: - Capture stream

extension PipeWireConnection {
  /// `PW_ID_ANY`, a cast macro Swift does not import.
  static let anyId = UInt32.max

  /// Makes the capture stream: F32 interleaved at the engine's rate and channels, capturing the
  /// sink's output (`stream.capture.sink`) with no target, so WirePlumber links it to the
  /// default sink's monitor and moves it when the default changes. Inactive unless something
  /// plays.
  ///
  /// No `node.latency`: the stream takes whatever period the graph runs at and never lowers
  /// it (one buffer is one quantum; the engine cuts frames out of it).
  func openStream() {
    guard let core, stream == nil else { return }
    let properties = Self.streamProperties([
      ("stream.capture.sink", "true"), ("node.name", "pulsebar"),
      ("node.description", "pulsebar capture"),
    ])
    guard let stream = pw_stream_new(core, "pulsebar capture", properties) else {
      log("PipeWire: cannot create the capture stream")
      scheduleRetry()
      return
    }
    self.stream = stream
    streamChannels = settings.channels
    pw_stream_add_listener(stream, streamHook, streamEvents, userdata)
    streamActive = monitorWanted
    let result = connectCapture(stream, channels: streamChannels, active: streamActive)
    if result < 0 {
      log("PipeWire: cannot connect the capture stream (error \(result))")
      closeStream()
      scheduleRetry()
    }
  }

  /// A capture stream's properties: audio, captured for music, by pulsebar, and `extra`.
  static func streamProperties(_ extra: [(String, String)]) -> UnsafeMutablePointer<pw_properties>?
  {
    let properties = pw_properties_new_string("")
    for (key, value) in [
      ("media.type", "Audio"), ("media.category", "Capture"), ("media.role", "Music"),
      ("application.name", "pulsebar"),
    ] + extra {
      pw_properties_set(properties, key, value)
    }
    return properties
  }

  /// Connects a capture stream that WirePlumber links (autoconnect): F32 interleaved at the
  /// engine's rate and `channels`, inactive unless `active`. No `node.latency`: the stream
  /// takes whatever period the graph runs at and never lowers it.
  func connectCapture(_ stream: OpaquePointer, channels: Int, active: Bool) -> Int32 {
    var flags = PW_STREAM_FLAG_AUTOCONNECT.rawValue | PW_STREAM_FLAG_MAP_BUFFERS.rawValue
    if !active { flags |= PW_STREAM_FLAG_INACTIVE.rawValue }
    var storage = [UInt8](repeating: 0, count: 1024)
    return storage.withUnsafeMutableBufferPointer { storage -> Int32 in
      var params = [
        pb_pw_f32_format(
          storage.baseAddress, UInt32(storage.count), UInt32(settings.sampleRate),
          UInt32(channels))
      ]
      return pw_stream_connect(
        stream, SPA_DIRECTION_INPUT, Self.anyId, pw_stream_flags(rawValue: flags), &params, 1)
    }
  }

  /// Destroys the capture stream, if any, without calling back into us.
  func closeStream() {
    guard let stream else { return }
    spa_hook_remove(streamHook)
    streamHook.pointee = spa_hook()
    pw_stream_destroy(stream)
    self.stream = nil
    streamActive = false
  }

  /// The stream failed (its node went away, negotiation failed): make it again after a delay.
  func streamStateChanged(_ state: pw_stream_state, error: String?) {
    switch state {
    case PW_STREAM_STATE_ERROR:
      debug?("PipeWire: capture stream failed (\(error ?? "?")); making it again")
      closeStream()
      scheduleRetry()
    case PW_STREAM_STATE_STREAMING:
      debug?("PipeWire: capture stream streaming")
    default: break
    }
  }

  /// Activates the stream while something plays, deactivates it otherwise (`because` says
  /// why, for `-v`): an inactive stream keeps nothing running, so WirePlumber may suspend the
  /// sink.
  func setActive(_ active: Bool, because reason: @autoclosure () -> String) {
    guard let stream, active != streamActive else { return }
    streamActive = active
    debug?("PipeWire: capture stream \(active ? "active" : "inactive") (\(reason()))")
    pw_stream_set_active(stream, active)
  }

  /// The process callback, once per quantum while active: copies the buffer's samples into the
  /// capture buffer, unless the player's own streams deliver (their last quanta before the
  /// stream goes inactive are dropped, so two signals never interleave). Allocates nothing.
  func process() {
    guard let stream else { return }
    Self.withDequeuedSamples(stream) { samples in
      if !playerDelivers { buffer.write(samples, channels: streamChannels) }
    }
  }

  /// Dequeues `stream`'s next buffer, hands its samples (F32 interleaved) to `body` and queues
  /// the buffer back. Allocates nothing.
  static func withDequeuedSamples(
    _ stream: OpaquePointer, _ body: (UnsafeBufferPointer<Float>) -> Void
  ) {
    guard let pwBuffer = pw_stream_dequeue_buffer(stream) else { return }
    defer { pw_stream_queue_buffer(stream, pwBuffer) }
    guard let spaBuffer = pwBuffer.pointee.buffer, spaBuffer.pointee.n_datas > 0,
      let data = spaBuffer.pointee.datas?.pointee, let base = data.data, let chunk = data.chunk
    else { return }
    let offset = min(chunk.pointee.offset, data.maxsize)
    let size = min(chunk.pointee.size, data.maxsize - offset)
    body(
      UnsafeBufferPointer(
        start: (base + Int(offset)).assumingMemoryBound(to: Float.self),
        count: Int(size) / MemoryLayout<Float>.size))
  }

  /// Makes the stream again at `format`'s channel count (a reload): a stream's format is fixed
  /// when it is connected. The connection and the graph stay; the generation is bumped so the
  /// engine drops its history.
  func reformat(_ format: CaptureFormat) {
    guard settings.channels != format.channels else { return }
    settings.channels = format.channels
    guard stream != nil else { return }
    closePlayerStreams()
    closeStream()
    buffer.discardAll()
    buffer.updateStatus { $0.generation &+= 1 }
    openStream()
    // The player's streams again, at the new channel count.
    reconcileScope()
  }
}

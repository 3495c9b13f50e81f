internal import CPipeWire

/// The libpipewire calls every capture stream makes, the monitor's
/// (``PipeWireMonitorStream``) and each of the player's (``PlayerCaptureStream``): they differ
/// in their properties and their target, not in how they are connected or read.
enum PipeWireCapture {
  /// `PW_ID_ANY`, a cast macro Swift does not import.
  static let anyId = UInt32.max

  /// A capture stream's properties: audio, captured for music, by pulsebar, and `extra`.
  /// `node.virtual`: desktops that list capture nodes as "using the microphone" (KDE Plasma)
  /// leave the node out.
  static func streamProperties(_ extra: [(String, String)]) -> UnsafeMutablePointer<pw_properties>?
  {
    let properties = pw_properties_new_string("")
    for (key, value) in [
      ("media.type", "Audio"), ("media.category", "Capture"), ("media.role", "Music"),
      ("application.name", "pulsebar"), ("node.virtual", "true"),
    ] + extra {
      pw_properties_set(properties, key, value)
    }
    return properties
  }

  /// Connects a capture stream that WirePlumber links (autoconnect): F32 interleaved at
  /// `sampleRate` and `channels`, inactive unless `active`. No `node.latency`: the stream
  /// takes whatever period the graph runs at and never lowers it.
  ///
  /// `PW_STREAM_FLAG_RT_PROCESS`: the process callback runs on libpipewire's data thread,
  /// which wakes each quantum anyway, instead of being passed on to the thread loop, which would
  /// wake for it too. The callbacks must then touch only what is safe from that thread (see
  /// ``PipeWireMonitorStream`` and ``PipeWirePlayerScope``).
  static func connectCapture(
    _ stream: OpaquePointer, sampleRate: Int, channels: Int, active: Bool
  ) -> Int32 {
    var flags =
      PW_STREAM_FLAG_AUTOCONNECT.rawValue | PW_STREAM_FLAG_MAP_BUFFERS.rawValue
      | PW_STREAM_FLAG_RT_PROCESS.rawValue
    if !active { flags |= PW_STREAM_FLAG_INACTIVE.rawValue }
    var storage = [UInt8](repeating: 0, count: 1024)
    return storage.withUnsafeMutableBufferPointer { storage -> Int32 in
      var params = [
        pb_pw_f32_format(
          storage.baseAddress, UInt32(storage.count), UInt32(sampleRate), UInt32(channels))
      ]
      return pw_stream_connect(
        stream, SPA_DIRECTION_INPUT, anyId, pw_stream_flags(rawValue: flags), &params, 1)
    }
  }

  /// Disconnects and destroys `stream`, removing `hook` (its listener) in between:
  /// `pw_stream_disconnect` waits until the data thread no longer processes the stream, so the
  /// listener list is never changed under a process callback that walks it. The listener
  /// hears the disconnect's `UNCONNECTED` state first.
  static func destroy(_ stream: OpaquePointer, listener hook: UnsafeMutablePointer<spa_hook>) {
    pw_stream_disconnect(stream)
    spa_hook_remove(hook)
    hook.pointee = spa_hook()
    pw_stream_destroy(stream)
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
}

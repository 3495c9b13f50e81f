internal import CPipeWire

/// The libpipewire calls every capture stream makes, the monitor's
/// (``PipeWireMonitorStream``) and each of the player's (``PipeWirePlayerStream``): they differ
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
  /// wake for it too. The process callbacks then touch only their listener's `data`, a
  /// `Sendable` value (``PipeWireMonitorProcess``, ``PipeWirePlayerProcess``).
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
}

internal import CPipeWire
import PulseBarCore

/// The capture stream on the default sink's monitor, a part of ``PipeWireConnection``: made
/// once the core is there, made again after a failure (from the retry timer) or at a reload's
/// channel count, active only while ``PipeWirePlayerScope/monitorWanted``. Its callbacks find
/// it through their `data`. The process callback runs on libpipewire's data thread: it reads
/// ``stream`` and the channel count, which change only while no stream is connected
/// (`pw_stream_destroy` waits for the data thread), and the scope's atomic hand-over flag.
final class PipeWireMonitorStream: PipeWireConnectionPart {
  unowned let connection: PipeWireConnection
  /// The capture stream while connected.
  private(set) var stream: OpaquePointer?
  /// The channel count the current stream was connected with.
  private var streamChannels = 1
  /// The stream's activity as last set (`pw_stream_set_active`).
  private var streamActive = false

  // Listener storage: libpipewire keeps pointers to these, so they live as long as we do.
  private let streamHook = UnsafeMutablePointer.allocate(initializedTo: spa_hook())
  private let streamEvents = UnsafeMutablePointer.allocate(initializedTo: pw_stream_events())

  init(connection: PipeWireConnection) {
    self.connection = connection
    streamEvents.pointee.version = UInt32(PW_VERSION_STREAM_EVENTS)
    streamEvents.pointee.state_changed = { data, _, state, error in
      PipeWireMonitorStream.from(data).streamStateChanged(
        state, error: error.map { String(cString: $0) })
    }
    streamEvents.pointee.process = { data in PipeWireMonitorStream.from(data).process() }
  }

  deinit {
    streamHook.deallocate()
    streamEvents.deallocate()
  }

  /// Makes the capture stream: F32 interleaved at the engine's rate and channels, capturing the
  /// sink's output (`stream.capture.sink`) with no target, so WirePlumber links it to the
  /// default sink's monitor and moves it when the default changes. Inactive unless something
  /// plays.
  ///
  /// No `node.latency`: the stream takes whatever period the graph runs at and never lowers
  /// it (one buffer is one quantum; the engine cuts frames out of it).
  func openStream() {
    guard let core, stream == nil else { return }
    let properties = PipeWireCapture.streamProperties([
      ("stream.capture.sink", "true"), ("node.name", "pulsebar"),
      ("node.description", "pulsebar capture"),
    ])
    guard let stream = pw_stream_new(core, "pulsebar capture", properties) else {
      log("PipeWire: cannot create the capture stream")
      connection.scheduleRetry()
      return
    }
    self.stream = stream
    streamChannels = settings.channels
    pw_stream_add_listener(stream, streamHook, streamEvents, userdata)
    streamActive = connection.scope.monitorWanted
    let result = PipeWireCapture.connectCapture(
      stream, sampleRate: settings.sampleRate, channels: streamChannels, active: streamActive)
    if result < 0 {
      log("PipeWire: cannot connect the capture stream (error \(result))")
      closeStream()
      connection.scheduleRetry()
    }
  }

  /// Destroys the capture stream, if any.
  func closeStream() {
    guard let stream else { return }
    // Its state callback hears `UNCONNECTED` on the way, which changes nothing.
    PipeWireCapture.destroy(stream, listener: streamHook)
    self.stream = nil
    streamActive = false
  }

  /// The stream failed (its node went away, negotiation failed): make it again after a delay.
  private func streamStateChanged(_ state: pw_stream_state, error: String?) {
    switch state {
    case PW_STREAM_STATE_ERROR:
      debug?("PipeWire: capture stream failed (\(error ?? "?")); making it again")
      closeStream()
      connection.scheduleRetry()
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

  /// The process callback, on the data thread once per quantum while active: copies the buffer's samples into the
  /// capture buffer, unless the player's own streams deliver (their last quanta before the
  /// stream goes inactive are dropped, so two signals never interleave). Allocates nothing.
  private func process() {
    guard let stream else { return }
    PipeWireCapture.withDequeuedSamples(stream) { samples in
      if !connection.scope.playerDelivers { buffer.write(samples, channels: streamChannels) }
    }
  }
}

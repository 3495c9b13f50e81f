internal import CAudioLibraries
internal import CPulse
import Glibc

/// A tiny libpulse player for tests: plays a sine into a sink and corks or
/// uncorks its own stream as a paused media player does (`paplay` and `pacat`
/// cannot be paused; SIGSTOP leaves their stream uncorked).
///
/// Confinement: the ``Generator`` is touched only by the mainloop thread (the
/// write callback) or with the mainloop lock held; the player itself belongs
/// to the test that made it.
package final class PulseTonePlayer {
  /// The sine's phase, advanced by the write callback.
  private final class Generator {
    let step: Double
    var phase = 0.0
    var samples: [Int16] = []
    init(frequency: Double) { step = 2 * Double.pi * frequency / 44100 }
  }

  private let mainloop: OpaquePointer
  private var context: OpaquePointer?
  private var stream: OpaquePointer?
  private let generator: Generator

  /// Connects to `server` and starts playing `frequency` Hz into `sink` (default sink if nil).
  package init(server: String, sink: String? = nil, frequency: Double = 440) throws(SpawnError) {
    if let error = pulsebar_open_libpulse() { throw SpawnError(message: String(cString: error)) }
    guard let mainloop = pa_threaded_mainloop_new() else {
      throw SpawnError(message: "pa_threaded_mainloop_new failed")
    }
    self.mainloop = mainloop
    generator = Generator(frequency: frequency)
    pa_threaded_mainloop_start(mainloop)
    guard let context = locked({ pa_context_new(pa_threaded_mainloop_get_api(mainloop), "tone") })
    else { throw SpawnError(message: "pa_context_new failed") }
    self.context = context
    locked { _ = pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) }
    try waitFor("context") { pa_context_get_state(context) == PA_CONTEXT_READY }
    var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: 44100, channels: 2)
    let userdata = Unmanaged.passUnretained(generator).toOpaque()
    let stream: OpaquePointer? = locked {
      let stream = pa_stream_new(context, "tone", &spec, nil)
      pa_stream_set_write_callback(
        stream,
        { stream, length, userdata in
          PulseTonePlayer.fill(stream, length, userdata)
        }, userdata)
      _ = pa_stream_connect_playback(
        stream, sink, nil, pa_stream_flags_t(rawValue: 0), nil, nil)
      return stream
    }
    self.stream = stream
    try waitFor("stream") { pa_stream_get_state(stream) == PA_STREAM_READY }
  }

  deinit { stop() }

  /// Corks (pauses) or uncorks the stream and waits for the server to confirm.
  package func setCorked(_ corked: Bool) {
    locked {
      guard let stream else { return }
      let operation = pa_stream_cork(stream, corked ? 1 : 0, nil, nil)
      while let operation, pa_operation_get_state(operation) == PA_OPERATION_RUNNING {
        pa_threaded_mainloop_unlock(mainloop)
        usleep(5000)
        pa_threaded_mainloop_lock(mainloop)
      }
      if let operation { pa_operation_unref(operation) }
    }
  }

  /// Ends the stream (the sink input goes away) and the connection. Idempotent.
  package func stop() {
    guard context != nil else { return }
    locked {
      if let stream {
        pa_stream_set_write_callback(stream, nil, nil)
        pa_stream_disconnect(stream)
        pa_stream_unref(stream)
      }
      if let context {
        pa_context_disconnect(context)
        pa_context_unref(context)
      }
    }
    stream = nil
    context = nil
    pa_threaded_mainloop_stop(mainloop)
    pa_threaded_mainloop_free(mainloop)
  }

  // MARK: - Plumbing

  private func locked<R>(_ body: () -> R) -> R {
    pa_threaded_mainloop_lock(mainloop)
    defer { pa_threaded_mainloop_unlock(mainloop) }
    return body()
  }

  private func waitFor(_ what: String, _ condition: () -> Bool) throws(SpawnError) {
    let deadline = ChildProcess.now() + 10  // generous: a loaded CI machine
    while !locked(condition) {
      if ChildProcess.now() > deadline {
        stop()
        throw SpawnError(message: "tone player: \(what) not ready")
      }
      usleep(5000)
    }
  }

  /// The write callback: `length` bytes of the sine, both channels alike.
  private static func fill(
    _ stream: OpaquePointer?, _ length: Int, _ userdata: UnsafeMutableRawPointer?
  ) {
    let generator = Unmanaged<Generator>.fromOpaque(userdata!).takeUnretainedValue()
    let frames = length / 4
    generator.samples.removeAll(keepingCapacity: true)
    for _ in 0..<frames {
      let value = Int16(sin(generator.phase) * 16000)
      generator.samples.append(value)
      generator.samples.append(value)
      generator.phase += generator.step
      if generator.phase > 2 * Double.pi { generator.phase -= 2 * Double.pi }
    }
    _ = generator.samples.withUnsafeBytes {
      pa_stream_write(stream, $0.baseAddress, $0.count, nil, 0, PA_SEEK_RELATIVE)
    }
  }
}

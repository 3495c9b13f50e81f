internal import CPulse
import PulseBarSystem

/// Records from PulseAudio: the monitor of the current default sink (following
/// changes), or a named source.
///
/// Built on libpulse's asynchronous API with a `pa_threaded_mainloop`; the
/// libpulse work lives in ``PulseConnection``, which only the mainloop thread
/// touches. This class is the thread-safe handle: `start` and `stop` may be
/// called from any thread, and its only mutable state sits in a `Lock`.
///
/// Samples are float32 at `sampleRate` with `channels` interleaved, in fragments
/// of about one frame (`1/fps` s). The record stream is corked while nothing
/// plays into the monitored sink, so an idle daemon costs nothing. A lost or
/// missing server is retried with back-off forever.
package final class PulseSource: CaptureSource {
  /// What to record and how; fixed at creation.
  package struct Settings: Sendable, Equatable {
    /// A source name, or `nil` for the monitor of the default sink.
    package var sourceName: String?
    package var sampleRate: Int
    package var channels: Int
    package var fps: Int
    /// The server address (`unix:/path`), or `nil` for libpulse's default (`PULSE_SERVER`, …).
    package var server: String?

    /// Bytes in one frame's worth of audio (`1/fps` s): the record fragment size.
    package func fragmentBytes(bytesPerSample: Int) -> UInt32 {
      UInt32(max(256, sampleRate * channels * bytesPerSample / max(1, fps)))
    }
  }

  /// The mainloop and the connection it drives while started.
  private struct Runtime {
    let mainloop: OpaquePointer
    let connection: PulseConnection
  }

  /// Where the source's few log lines go (connection lost and back, a missing source).
  package typealias Log = @Sendable (String) -> Void

  /// The rate asked of the server unless told otherwise (it resamples the monitor).
  package static let defaultSampleRate = 44100

  package let settings: Settings
  private let log: Log
  private let runtime = Lock<Runtime?>(nil)

  package init(
    sourceName: String?, sampleRate: Int = defaultSampleRate, channels: Int, fps: Int,
    server: String? = nil, log: @escaping Log = { Console.error("pulsebar: \($0)\n") }
  ) {
    self.log = log
    settings = Settings(
      sourceName: sourceName, sampleRate: sampleRate, channels: channels, fps: fps, server: server)
  }

  deinit { stop() }

  /// Starts the mainloop thread and the first connection attempt; returns at once.
  /// The buffer must have this source's sample rate and channel count.
  package func start(into buffer: CaptureBuffer) {
    precondition(buffer.channels == settings.channels && buffer.sampleRate == settings.sampleRate)
    runtime.withLock { runtime in
      guard runtime == nil, let mainloop = pa_threaded_mainloop_new() else { return }
      let connection = PulseConnection(
        mainloop: mainloop, settings: settings, buffer: buffer, log: log)
      guard pa_threaded_mainloop_start(mainloop) == 0 else {
        log("PulseAudio: cannot start the mainloop thread")
        pa_threaded_mainloop_free(mainloop)
        return
      }
      // Connect only once the thread runs and holds nothing: libpulse records the
      // thread after creating it, so a callback it ran before that would look foreign.
      connection.withLoopLock { connection.connect() }
      runtime = Runtime(mainloop: mainloop, connection: connection)
    }
  }

  /// Disconnects, stops the mainloop thread and frees everything. Idempotent.
  package func stop() {
    runtime.withLock { runtime in
      guard let current = runtime else { return }
      current.connection.withLoopLock { current.connection.shutdown() }
      pa_threaded_mainloop_stop(current.mainloop)
      pa_threaded_mainloop_free(current.mainloop)
      runtime = nil
    }
  }
}

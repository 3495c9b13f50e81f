import PulseBarCore

/// A producer of audio: PulseAudio, a paced audio file, a FIFO or stdin.
///
/// A source runs on its own thread (libpulse's threaded mainloop, or a reader
/// thread) and only copies samples into the ``CaptureBuffer`` and posts status
/// changes there; all analysis happens on the engine thread that drains it.
package protocol CaptureSource: AnyObject, Sendable {
  /// Starts delivering into `buffer`. Returns at once; never blocks on the audio server.
  func start(into buffer: CaptureBuffer)
  /// Stops delivering and releases the audio server resources. Idempotent.
  func stop()
}

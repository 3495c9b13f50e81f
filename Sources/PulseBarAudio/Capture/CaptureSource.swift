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
  /// The buffer's ``CaptureFormat`` changed (a reload changed channels or fps): deliver at the
  /// new one from now on. Called on the engine thread after ``CaptureBuffer/reconfigure(_:)``.
  ///
  /// Sources that read the format from the buffer at every chunk (files, raw PCM) need nothing
  /// here and keep their place in the input; PulseAudio's record stream has its channel count
  /// and fragment size fixed when it is made, so ``PulseSource`` rebuilds it.
  func formatChanged()
}

extension CaptureSource {
  package func formatChanged() {}
}

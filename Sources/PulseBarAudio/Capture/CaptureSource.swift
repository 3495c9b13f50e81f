import PulseBarCore
import PulseBarSystem

/// A producer of audio: PulseAudio, a paced audio file, a FIFO or stdin.
///
/// A source runs on its own thread (libpipewire's loop, or a reader thread), or, as an
/// ``EngineDrivenCapture`` (libpulse's), inside the engine's own wait on the engine's thread. Either way it only copies samples into the ``CaptureBuffer`` and
/// posts status changes there; all analysis happens on the engine thread that drains it.
package protocol CaptureSource: AnyObject, Sendable {
  /// Starts delivering into `buffer`. Returns at once; never blocks on the audio server.
  func start(into buffer: CaptureBuffer)
  /// Stops delivering and releases the audio server resources. Idempotent.
  func stop()
  /// The active MPRIS player changed, or started or stopped playing (`nil`: none). Sources
  /// with `input.scope = player` record its streams while it plays; others ignore it. Called
  /// on the engine thread.
  func follow(player: PlayerAudioIdentity?)
  /// A reload or the engine's consumers changed what `change` names, told once: a new format
  /// (channels or fps, the buffer reconfigured before), the analysis rate (a source whose
  /// chunks need not come more often than that may send larger ones), `input.scope`. Called
  /// on the engine thread.
  ///
  /// Sources that read the format from the buffer at every chunk (files, raw PCM) need nothing
  /// here and keep their place in the input; a server's record streams have their channel
  /// count fixed when they are made, so ``PulseSource`` and ``PipeWireSource`` make them again.
  func reconfigure(_ change: CaptureChange)
}

extension CaptureSource {
  package func follow(player: PlayerAudioIdentity?) {}
  package func reconfigure(_ change: CaptureChange) {}
}

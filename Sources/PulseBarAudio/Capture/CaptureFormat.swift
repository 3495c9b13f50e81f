import Glibc
import PulseBarCore
import PulseBarSystem

/// What the analysis wants from the capture: interleaved channels and the frame rate that
/// sizes a paced file's reads. The audio servers' chunks have sizes of their own (PulseAudio's
/// 3072-frame steady fragment, PipeWire's quantum); the engine spaces the frames they hold.
///
/// It changes only on a config reload (``CaptureBuffer/reconfigure(_:)``); sources read it
/// from the buffer, so the buffer is its one owner.
package struct CaptureFormat: Sendable, Equatable {
  /// Stereo is the most the analysis takes; buffers sized for it fit every format.
  package static let maxChannels = 2

  /// Interleaved channels in every sample frame (1 or 2).
  package var channels: Int
  /// Frames per second of analysis: each frame is the next `1/fps` s of audio.
  package var fps: Int

  package init(channels: Int, fps: Int) {
    self.channels = channels
    self.fps = fps
  }
}

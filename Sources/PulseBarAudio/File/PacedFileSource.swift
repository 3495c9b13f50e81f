import Glibc
import PulseBarCore
import PulseBarSystem

/// Plays an audio file into the capture buffer in real time, one frame of
/// audio every `1/fps` s against absolute deadlines (no drift), as if it came
/// from the sound card; `endOfStream` at the end.
package final class PacedFileSource: CaptureSource {
  private let file: Lock<AudioFile?>
  private let path: String
  private let fps: Int
  private let stopSignal = StopSignal()

  /// Takes an opened file (so that a bad file fails before anything starts).
  package init(file: sending AudioFile, fps: Int) {
    path = file.path
    self.fps = fps
    self.file = Lock(file)
  }

  package func start(into buffer: CaptureBuffer) {
    guard let file = self.file.withLock({ $0.take() }) else { return }
    let fps = fps
    let path = path
    let stopSignal = stopSignal
    buffer.updateStatus {
      $0.connected = true
      $0.sourceName = path
      $0.activity = .running
    }
    PosixThread.spawn { [file] in
      let owned = file
      let hop = max(1, owned.sampleRate / fps)
      let chunk = UnsafeMutableBufferPointer<Float>.allocate(capacity: hop * owned.outputChannels)
      defer { chunk.deallocate() }
      let start = monotonicSeconds()
      var frames = 0
      while !stopSignal.isRequested {
        let read = owned.read(frames: hop, into: chunk)
        if read == 0 { break }
        buffer.write(UnsafeBufferPointer(rebasing: chunk[..<(read * owned.outputChannels)]))
        frames += 1
        let deadline = start + Double(frames) / Double(fps)
        let wait = deadline - monotonicSeconds()
        if wait > 0 && !stopSignal.sleep(wait) { break }
      }
      buffer.updateStatus {
        $0.activity = .none
        $0.endOfStream = true
      }
    }.detach()
  }

  package func stop() { stopSignal.request() }
}

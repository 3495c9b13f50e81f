import Glibc
import PulseBarCore
import PulseBarSystem

/// Plays an audio file into the capture buffer in real time, one frame of
/// audio every `1/fps` s against absolute deadlines (no drift), as if it came
/// from the sound card; `endOfStream` at the end.
///
/// The channels and `fps` are the buffer's ``CaptureFormat``, read before each chunk, so a
/// reload that changes them goes on from the same place in the file at the new format.
package final class PacedFileSource: CaptureSource {
  private let file: Lock<AudioFile?>
  private let path: String
  private let stopSignal = StopSignal()

  /// Takes an opened file (so that a bad file fails before anything starts). Its pace is the
  /// buffer's `fps` (``CaptureFormat``).
  package init(file: sending AudioFile) {
    path = file.path
    self.file = Lock(file)
  }

  package func start(into buffer: CaptureBuffer) {
    guard let file = self.file.withLock({ $0.take() }) else { return }
    let path = path
    let stopSignal = stopSignal
    buffer.updateStatus {
      $0.connected = true
      $0.sourceName = path
      $0.activity = .running
    }
    PosixThread.spawn { [file] in
      let owned = file
      // The chunk size and channels follow the buffer's format, read before every chunk: a
      // reload that changes them takes effect at the next chunk, at the same place in the file.
      var format = buffer.format
      var hop = max(1, owned.sampleRate / format.fps)
      var chunk = UnsafeMutableBufferPointer<Float>.allocate(
        capacity: hop * CaptureFormat.maxChannels)
      defer { chunk.deallocate() }
      var start = monotonicSeconds()
      var frames = 0
      while !stopSignal.isRequested {
        let current = buffer.format
        if current != format {
          // A new pace: a new schedule from now, so the change neither bursts nor stalls.
          format = current
          hop = max(1, owned.sampleRate / format.fps)
          chunk.deallocate()
          chunk = .allocate(capacity: hop * CaptureFormat.maxChannels)
          start = monotonicSeconds()
          frames = 0
        }
        let read = owned.read(frames: hop, into: chunk, channels: format.channels)
        if read == 0 { break }
        buffer.write(
          UnsafeBufferPointer(rebasing: chunk[..<(read * format.channels)]),
          channels: format.channels)
        frames += 1
        let deadline = start + Double(frames) / Double(format.fps)
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

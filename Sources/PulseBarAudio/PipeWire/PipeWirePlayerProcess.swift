import PulseBarCore
import Synchronization

/// What a player capture stream's process callback reads and writes on libpipewire's data
/// thread, made when the stream is connected and fixed until it is destroyed: the stream, its
/// key in the mixer's lanes, its channel count, the capture buffer, the hand-over shared with
/// the monitor stream, and the timer that has the loop tell the core of its first quantum. The process listener's
/// `data`; nothing on the loop side is reachable from it.
final class PipeWirePlayerProcess: PipeWireCallbackTarget, Sendable {
  let stream: PipeWireStreamHandle
  /// Names the stream in ``PlayerStreamLanes`` (unique for the connection's life).
  let key: UInt64
  let channels: Int
  let buffer: CaptureBuffer
  let handOver: PipeWireHandOver
  /// Has the loop look at the streams (``PipeWireConnection/streamsChanged()``).
  let changed: PipeWireLoopTimer
  /// Its first quantum has arrived.
  let delivered = Atomic(false)

  init(
    stream: PipeWireStreamHandle, key: UInt64, channels: Int, buffer: CaptureBuffer,
    handOver: PipeWireHandOver, changed: PipeWireLoopTimer
  ) {
    self.stream = stream
    self.key = key
    self.channels = channels
    self.buffer = buffer
    self.handOver = handOver
    self.changed = changed
  }

  /// Once per quantum: the stream's samples, through the mixer, into the buffer. The first
  /// samples of the first stream to deliver hand over from the monitor stream, whose data is
  /// dropped from then on; each stream's first has the loop tell the core, which then makes
  /// the monitor stream inactive. Allocates nothing.
  func process() {
    stream.withDequeuedSamples { samples in
      guard !samples.isEmpty else { return }
      if !delivered.exchange(true, ordering: .acquiringAndReleasing) {
        handOver.delivering.store(true, ordering: .releasing)
        changed.armNow()
      }
      let quantum = DequeuedSamples(samples: samples)
      handOver.mixing.withLock { lanes in
        lanes.write(quantum.samples, from: key) { mixed in
          buffer.write(mixed, channels: channels, origin: .player)
        }
      }
    }
  }
}

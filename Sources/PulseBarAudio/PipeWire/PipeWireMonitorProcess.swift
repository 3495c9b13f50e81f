import PulseBarCore

/// What the monitor stream's process callback reads on libpipewire's data thread, made when
/// the stream is connected and fixed until it is destroyed: the stream, its channel count, the
/// capture buffer and the hand-over flag. The process listener's `data`; nothing on the loop
/// side is reachable from it.
final class PipeWireMonitorProcess: PipeWireCallbackTarget, Sendable {
  let stream: PipeWireStreamHandle
  let channels: Int
  let buffer: CaptureBuffer
  let handOver: PipeWireHandOver

  init(
    stream: PipeWireStreamHandle, channels: Int, buffer: CaptureBuffer,
    handOver: PipeWireHandOver
  ) {
    self.stream = stream
    self.channels = channels
    self.buffer = buffer
    self.handOver = handOver
  }

  /// Once per quantum while the stream is active: copies the buffer's samples into the capture
  /// buffer, unless the player's own streams deliver (their last quanta before the stream goes
  /// inactive are dropped, so two signals never interleave). Allocates nothing.
  func process() {
    stream.withDequeuedSamples { samples in
      if !handOver.playerDelivers { buffer.write(samples, channels: channels) }
    }
  }
}

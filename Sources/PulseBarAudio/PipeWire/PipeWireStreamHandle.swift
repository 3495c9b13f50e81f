internal import CPipeWire

/// A `pw_stream` as its process callback sees it on libpipewire's data thread: the one C pointer
/// that callback needs, fixed from connection to destruction.
///
/// `@unchecked Sendable` because `OpaquePointer` is not `Sendable`, and that is unavoidable:
/// the callback must hand the pointer to `pw_stream_dequeue_buffer`. The handle itself is an
/// immutable value; the stream behind it is libpipewire's, whose dequeue and queue calls are
/// made for the process callback, and which is destroyed only after `pw_stream_disconnect`
/// has waited for the data thread to leave it.
struct PipeWireStreamHandle: @unchecked Sendable {
  let stream: OpaquePointer

  /// Dequeues the stream's next buffer, hands its samples (F32 interleaved) to `body` and
  /// queues the buffer back. Allocates nothing.
  func withDequeuedSamples(_ body: (UnsafeBufferPointer<Float>) -> Void) {
    guard let pwBuffer = pw_stream_dequeue_buffer(stream) else { return }
    defer { pw_stream_queue_buffer(stream, pwBuffer) }
    guard let spaBuffer = pwBuffer.pointee.buffer, spaBuffer.pointee.n_datas > 0,
      let data = spaBuffer.pointee.datas?.pointee, let base = data.data, let chunk = data.chunk
    else { return }
    let offset = min(chunk.pointee.offset, data.maxsize)
    let size = min(chunk.pointee.size, data.maxsize - offset)
    body(
      UnsafeBufferPointer(
        start: (base + Int(offset)).assumingMemoryBound(to: Float.self),
        count: Int(size) / MemoryLayout<Float>.size))
  }
}

/// One quantum's samples, in libpipewire's buffer, valid only inside the process callback that
/// dequeued them, for the mixer under its lock (``PipeWirePlayerProcess/process()``).
///
/// `@unchecked Sendable` because `UnsafeBufferPointer` is not, and that is unavoidable: the
/// region checker will not let a pointer the callback received reach the value inside the
/// mixer's `Mutex`, as it cannot see that ``StreamMixer`` copies the samples and keeps no
/// pointer to them. Nothing stores this value.
struct DequeuedSamples: @unchecked Sendable {
  let samples: UnsafeBufferPointer<Float>
}

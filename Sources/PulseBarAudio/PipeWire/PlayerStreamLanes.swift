/// The player's capture streams summed into one signal: the ``StreamMixer`` and, in lane
/// order, the key of the stream (``PipeWirePlayerProcess/key``) each lane mixes. Lives in
/// ``PipeWireHandOver/mixing``.
struct PlayerStreamLanes {
  /// Sums the player's streams (a stream may lag 50 ms behind the others).
  let mixer: StreamMixer
  /// The stream each lane mixes, by key; a stream not listed is not mixed.
  private var keys: [UInt64] = []

  init(mixer: StreamMixer) { self.mixer = mixer }

  /// Starts over with one empty lane for each of `keys`, in order (a changed set of streams:
  /// what a lane had queued is dropped with the old set).
  mutating func reset(keys: [UInt64]) {
    self.keys = keys
    mixer.reset(lanes: keys.count)
  }

  /// Queues `samples` from the stream with `key` and hands on to `emit` what is ready.
  /// Allocates nothing.
  func write(
    _ samples: UnsafeBufferPointer<Float>, from key: UInt64,
    emit: (UnsafeBufferPointer<Float>) -> Void
  ) {
    guard let lane = keys.firstIndex(of: key) else { return }
    mixer.write(samples, lane: lane, emit: emit)
  }
}

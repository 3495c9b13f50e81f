import PulseBarCore

/// Sums a player's several record streams (browser tabs, a game's music and effects) into one
/// signal, sample by sample, for the ``CaptureBuffer``.
///
/// Each stream is a lane that queues what its stream delivered. Whatever all lanes hold is
/// summed and handed on at once. A lane that has stopped delivering (its stream corked, or
/// slow to start) must not hold the others up: once any lane queues more than
/// ``maximumLag`` samples, everything queued is handed on, the silent lanes counting as zeros.
/// With one lane the samples pass straight through.
///
/// Not `Sendable`, so the compiler keeps each mixer where it was made: on libpulse's mainloop
/// thread, or inside the `Mutex` of PipeWire's ``PlayerStreamLanes``, which lends it to one
/// thread at a time. The storage is made once, so a fragment allocates nothing.
package final class StreamMixer {
  /// Lanes at most: the streams of one player beyond this many are not recorded.
  package static let maximumLanes = PlayerCapturePlan.maximumStreams

  /// Interleaved samples a lane may queue before the others are handed on without it.
  package let maximumLag: Int
  /// Lanes in use (`0..<laneCount`).
  package private(set) var laneCount = 0
  /// One queue per lane, each `capacity` samples, side by side.
  private let storage: UnsafeMutableBufferPointer<Float>
  /// Samples queued in each lane.
  private var queued: [Int]
  /// Space for one hand-on.
  private let output: UnsafeMutableBufferPointer<Float>
  private let capacity: Int

  /// A mixer that lets a lane fall `maximumLag` interleaved samples behind.
  package init(maximumLag: Int) {
    self.maximumLag = max(1, maximumLag)
    capacity = self.maximumLag * 2
    storage = .allocate(capacity: capacity * Self.maximumLanes)
    storage.initialize(repeating: 0)
    output = .allocate(capacity: capacity)
    output.initialize(repeating: 0)
    queued = Array(repeating: 0, count: Self.maximumLanes)
  }

  deinit {
    storage.deallocate()
    output.deallocate()
  }

  /// Starts over with `lanes` lanes (at most ``maximumLanes``), nothing queued.
  package func reset(lanes: Int) {
    laneCount = min(max(0, lanes), Self.maximumLanes)
    for lane in queued.indices { queued[lane] = 0 }
  }

  /// Queues `samples` from lane `lane` and hands on to `emit` what is ready. Samples of a lane
  /// not in use are dropped.
  package func write(
    _ samples: UnsafeBufferPointer<Float>, lane: Int,
    emit: (UnsafeBufferPointer<Float>) -> Void
  ) {
    guard lane >= 0, lane < laneCount, !samples.isEmpty else { return }
    if laneCount == 1 { return emit(samples) }
    var offset = 0
    while offset < samples.count {
      let room = capacity - queued[lane]
      if room == 0 {
        handOn(count: queued[lane], emit: emit)
        continue
      }
      let count = min(room, samples.count - offset)
      let start = lane * capacity + queued[lane]
      for index in 0..<count { storage[start + index] = samples[offset + index] }
      queued[lane] += count
      offset += count
      handOnReady(emit: emit)
    }
  }

  /// Hands on what every lane holds, or all that is queued once a lane is too far ahead.
  private func handOnReady(emit: (UnsafeBufferPointer<Float>) -> Void) {
    var least = Int.max
    var most = 0
    for lane in 0..<laneCount {
      least = min(least, queued[lane])
      most = max(most, queued[lane])
    }
    if most > maximumLag {
      handOn(count: most, emit: emit)
    } else if least > 0 {
      handOn(count: least, emit: emit)
    }
  }

  /// Sums the first `count` samples of every lane (a shorter lane adds what it has), hands
  /// them on, and drops them from the lanes.
  private func handOn(count: Int, emit: (UnsafeBufferPointer<Float>) -> Void) {
    guard count > 0 else { return }
    for index in 0..<count { output[index] = 0 }
    for lane in 0..<laneCount {
      let base = lane * capacity
      let used = min(count, queued[lane])
      for index in 0..<used { output[index] += storage[base + index] }
      let left = queued[lane] - used
      for index in 0..<left { storage[base + index] = storage[base + used + index] }
      queued[lane] = left
    }
    emit(UnsafeBufferPointer(rebasing: output[..<count]))
  }
}

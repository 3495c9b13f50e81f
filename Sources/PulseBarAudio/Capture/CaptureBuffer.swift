import Glibc
import PulseBarCore
import PulseBarSystem

/// What the capture side last reported, besides samples.
package struct CaptureStatus: Sendable, Equatable {
  /// Streams feeding the monitored sink (PulseAudio), or whether a file is still delivering.
  package var activity: StreamActivity = .none
  /// Connected to the audio server (always true for file, fifo and stdin input).
  package var connected: Bool = false
  /// The source being recorded, for the status line, tooltips and `STATUS=`.
  package var sourceName: String = ""
  /// The input has ended for good (end of file or of the fifo writer with no reopen).
  package var endOfStream: Bool = false
  /// Bumped whenever the stream is recreated (sink switch, reconnect): the engine resets its history.
  package var generation: UInt32 = 0

  package init() {}
}

/// The hand-off between a capture thread and the engine thread.
///
/// A bounded ring of interleaved `Float` samples guarded by a `Lock`, plus the
/// latest ``CaptureStatus``. Writers never block on the reader: when the ring is
/// full the oldest samples are overwritten (the engine only wants the newest
/// audio anyway). Every write or status change signals an `eventfd` that the
/// engine polls, so the engine sleeps with no timer while nothing arrives.
package final class CaptureBuffer: Sendable {
  private struct Ring {
    var samples: [Float]
    var readIndex = 0
    var count = 0
    var status = CaptureStatus()
    var statusChanged = false
  }

  /// Interleaved channels in every write and read.
  package let channels: Int
  /// Samples per second per channel.
  package let sampleRate: Int
  private let ring: Lock<Ring>
  /// Signalled by every write and status change; the engine polls its descriptor.
  private let wake = WakeSignal()
  /// The descriptor the engine polls.
  package var wakeDescriptor: FileDescriptor { wake.descriptor }

  /// Creates a buffer holding `seconds` of audio (at least one sample frame).
  package init(sampleRate: Int, channels: Int, seconds: Double = 1.0) {
    self.channels = channels
    self.sampleRate = sampleRate
    let capacity = max(channels, Int(Double(sampleRate) * seconds) * channels)
    ring = Lock(Ring(samples: [Float](repeating: 0, count: capacity)))
  }

  /// Appends interleaved samples (capture thread). Overwrites the oldest when full.
  package func write(_ interleaved: UnsafeBufferPointer<Float>) {
    guard !interleaved.isEmpty else { return }
    ring.withLock { ring in
      let capacity = ring.samples.count
      var source = interleaved
      if source.count > capacity {
        source = UnsafeBufferPointer(rebasing: source.suffix(capacity))
      }
      let overflow = ring.count + source.count - capacity
      if overflow > 0 {
        ring.readIndex = (ring.readIndex + overflow) % capacity
        ring.count -= overflow
      }
      var writeIndex = (ring.readIndex + ring.count) % capacity
      ring.samples.withUnsafeMutableBufferPointer { storage in
        for sample in source {
          storage[writeIndex] = sample
          writeIndex += 1
          if writeIndex == capacity { writeIndex = 0 }
        }
      }
      ring.count += source.count
    }
    signal()
  }

  /// Moves up to `destination.count` samples (a whole number of sample frames) out; returns how many.
  package func read(into destination: UnsafeMutableBufferPointer<Float>) -> Int {
    ring.withLock { ring in
      let capacity = ring.samples.count
      var wanted = min(destination.count, ring.count)
      wanted -= wanted % channels
      ring.samples.withUnsafeBufferPointer { storage in
        var index = ring.readIndex
        for offset in 0..<wanted {
          destination[offset] = storage[index]
          index += 1
          if index == capacity { index = 0 }
        }
        ring.readIndex = index
      }
      ring.count -= wanted
      return wanted
    }
  }

  /// Samples waiting to be read.
  package var availableSamples: Int { ring.withLock { $0.count } }

  /// Drops everything buffered (after a stream switch the old audio is stale).
  package func discardAll() {
    ring.withLock { ring in
      ring.readIndex = 0
      ring.count = 0
    }
  }

  /// Changes the status (capture thread) and wakes the engine if anything changed.
  package func updateStatus(_ change: (inout CaptureStatus) -> Void) {
    let changed = ring.withLock { ring in
      let before = ring.status
      change(&ring.status)
      if ring.status != before { ring.statusChanged = true }
      return ring.status != before
    }
    if changed { signal() }
  }

  /// The current status.
  package var status: CaptureStatus { ring.withLock { $0.status } }

  /// Returns the status if it changed since the last call (engine thread).
  package func takeStatusChange() -> CaptureStatus? {
    ring.withLock { ring in
      guard ring.statusChanged else { return nil }
      ring.statusChanged = false
      return ring.status
    }
  }

  /// Wakes the engine without data (a status change, a stop request).
  package func signal() { wake.signal() }

  /// Clears pending wake-ups (engine thread, after poll says readable).
  package func drainWakeups() { wake.drain() }
}

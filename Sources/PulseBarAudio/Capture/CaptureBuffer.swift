import Glibc
import PulseBarCore
import PulseBarSystem

/// The hand-off between a capture thread and the engine thread.
///
/// A bounded ring of interleaved `Float` samples guarded by a `Lock`, plus the
/// latest ``CaptureStatus`` and the ``CaptureFormat`` the samples must have.
/// Writers never block on the reader: when the ring is full the oldest samples
/// are overwritten (the engine only wants the newest audio anyway). A status change, and a
/// write that brings a whole frame's audio (``wakeReader(atSamples:)``), signal an `eventfd`
/// that the engine polls, so the engine sleeps with no timer while nothing arrives and is
/// not woken for audio it cannot use yet.
///
/// A reload that changes channels or fps calls ``reconfigure(_:)``: the ring drops what it
/// holds and from then on accepts only writes at the new channel count. A write made at the
/// old count (a capture thread that had not yet seen the change) is dropped whole, so mono
/// samples are never read as left/right pairs.
///
/// Where the audio changes hands amid sound (``SourceSwitch``) is marked among the samples:
/// writes say their ``CaptureOrigin``, and a new stream's first samples are marked with
/// ``markSourceSwitch()``; the reader learns of it with the samples (``takeSourceSwitch()``).
package final class CaptureBuffer: Sendable {
  private struct Ring {
    var samples: [Float]
    var format: CaptureFormat
    var readIndex = 0
    var count = 0
    var status = CaptureStatus()
    var statusChanged = false
    /// A write that brings ``count`` from below this to at least this wakes the reader.
    var wakeAt = 1
    /// Where the audio last changed hands (``takeSourceSwitch()``).
    var switches = SourceSwitchTracker()
  }

  /// Samples per second per channel.
  package let sampleRate: Int
  private let ring: Lock<Ring>
  /// Signalled by status changes and by writes that reach the reader's threshold; the engine
  /// polls its descriptor.
  private let wake = WakeSignal()
  /// The descriptor the engine polls.
  package var wakeDescriptor: FileDescriptor { wake.descriptor }

  /// Seconds of audio the ring holds.
  private let seconds: Double

  /// Creates a buffer holding `seconds` of audio (at least one sample frame).
  package init(sampleRate: Int, channels: Int, fps: Int = 60, seconds: Double = 1.0) {
    self.sampleRate = sampleRate
    self.seconds = seconds
    let format = CaptureFormat(channels: channels, fps: fps)
    ring = Lock(
      Ring(
        samples: Self.storage(sampleRate: sampleRate, seconds: seconds, format: format),
        format: format))
  }

  private static func storage(sampleRate: Int, seconds: Double, format: CaptureFormat) -> [Float] {
    [Float](
      repeating: 0,
      count: max(format.channels, Int(Double(sampleRate) * seconds) * format.channels))
  }

  /// The channels and frame rate samples must come in (see ``reconfigure(_:)``).
  package var format: CaptureFormat { ring.withLock { $0.format } }

  /// Interleaved channels in every write and read.
  package var channels: Int { format.channels }

  /// Changes the format (engine thread, on a reload): drops what the ring holds, which has the
  /// old channel count, and wakes the engine. Sources pick the new format up from the buffer
  /// (a file or PCM reader at its next chunk; PulseAudio when told to restart its stream).
  package func reconfigure(_ format: CaptureFormat) {
    let changed = ring.withLock { ring in
      guard ring.format != format else { return false }
      if ring.format.channels != format.channels {
        ring.samples = Self.storage(sampleRate: sampleRate, seconds: seconds, format: format)
      }
      ring.format = format
      ring.readIndex = 0
      ring.count = 0
      ring.switches.discarded()
      return true
    }
    if changed { signal() }
  }

  /// Wakes the reader only when a write brings the queued samples up to `samples` (engine
  /// thread): one frame's audio. A writer whose chunks are smaller than a frame (a PipeWire
  /// quantum of 1024 sample frames against 1600 for a frame at 30 a second) then wakes the
  /// engine once per frame instead of once per chunk; and while a frame is queued the engine
  /// waits for its time to draw it, so further writes need not wake it either. Edge-triggered,
  /// so no wake-up is lost: a reader that finds less than `samples` queued sleeps until a write
  /// crosses the threshold. 1 (the start) wakes it for every write.
  package func wakeReader(atSamples samples: Int) {
    ring.withLock { $0.wakeAt = max(1, min(samples, $0.samples.count)) }
  }

  /// Appends interleaved samples of `channels` channels (capture thread). Overwrites the oldest
  /// when full. Samples whose channel count is not the buffer's (written just before a
  /// reconfiguration reached the writer) are dropped. The reader is woken when the write
  /// reaches its threshold (``wakeReader(atSamples:)``); `wakingTheReader: false` is for a
  /// writer on the reader's own thread (a source the engine drives), which needs no eventfd.
  /// A write from another `origin` than the last one's marks a hand-over at its first sample.
  package func write(
    _ interleaved: UnsafeBufferPointer<Float>, channels: Int, wakingTheReader: Bool = true,
    origin: CaptureOrigin = .output
  ) {
    guard !interleaved.isEmpty else { return }
    let reachedThreshold = ring.withLock { ring -> Bool in
      guard channels == ring.format.channels else { return false }
      ring.switches.wrote(interleaved.count, from: origin)
      let queuedBefore = ring.count
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
      let writeIndex = (ring.readIndex + ring.count) % capacity
      // At most two block copies: up to the end of the storage, then from its start.
      ring.samples.withUnsafeMutableBufferPointer { storage in
        let first = min(source.count, capacity - writeIndex)
        (storage.baseAddress! + writeIndex).update(from: source.baseAddress!, count: first)
        storage.baseAddress!.update(from: source.baseAddress! + first, count: source.count - first)
      }
      ring.count += source.count
      return queuedBefore < ring.wakeAt && ring.count >= ring.wakeAt
    }
    if reachedThreshold && wakingTheReader { signal() }
  }

  /// Moves up to `destination.count` samples (a whole number of sample frames) out; returns how many.
  package func read(into destination: UnsafeMutableBufferPointer<Float>) -> Int {
    ring.withLock { ring in
      let capacity = ring.samples.count
      var wanted = min(destination.count, ring.count)
      wanted -= wanted % ring.format.channels
      guard wanted > 0 else { return 0 }
      // At most two block copies: up to the end of the storage, then from its start.
      let readIndex = ring.readIndex
      ring.samples.withUnsafeBufferPointer { storage in
        let first = min(wanted, capacity - readIndex)
        destination.baseAddress!.update(from: storage.baseAddress! + readIndex, count: first)
        (destination.baseAddress! + first).update(
          from: storage.baseAddress!, count: wanted - first)
      }
      ring.readIndex = (readIndex + wanted) % capacity
      ring.count -= wanted
      return wanted
    }
  }

  /// Samples waiting to be read.
  package var availableSamples: Int { ring.withLock { $0.count } }

  /// Drops everything buffered (after a stream switch the old audio is stale), and the
  /// switch marks with it.
  package func discardAll() {
    ring.withLock { ring in
      ring.readIndex = 0
      ring.count = 0
      ring.switches.discarded()
    }
  }

  /// Marks a new stream amid sound (capture thread, after ``discardAll()``): the samples
  /// written from now on continue, from a new stream, a sound that plays (a default-sink
  /// switch, the server's return, the daemon's start). Not called for a stream that starts
  /// with nothing playing: its first sound is a start.
  package func markSourceSwitch() {
    ring.withLock { $0.switches.mark(.newStream) }
  }

  /// The source switch among the samples read so far, once (engine thread, after a read):
  /// the frame that holds those samples holds it.
  package func takeSourceSwitch() -> SourceSwitch? {
    ring.withLock { $0.switches.take(queued: $0.count) }
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

import PulseBarCore

/// Where the last ``SourceSwitch`` lies in the samples a ``CaptureBuffer`` passes on, counted
/// from the first sample ever written, and when the reader has read up to it. Part of the
/// buffer's locked state; a pure value.
///
/// Two marks make a switch: a write whose ``CaptureOrigin`` is not the last write's (a
/// hand-over), and ``mark(_:)`` (a new stream opened amid sound). A switch the reader has not
/// reached when another comes is replaced by the later one (its priming covers both), keeping
/// ``SourceSwitch/newStream`` if either was one.
struct SourceSwitchTracker {
  /// Samples written so far (those a full ring overwrote included): the next one's position.
  private(set) var written: UInt64 = 0
  /// The origin of the last write; `nil` at the start and after a discard.
  private var lastOrigin: CaptureOrigin?
  /// The switch the reader has not reached yet, and the position of its first sample.
  private var pending: (change: SourceSwitch, at: UInt64)?

  /// `count` samples from `origin` are appended.
  mutating func wrote(_ count: Int, from origin: CaptureOrigin) {
    if let lastOrigin, lastOrigin != origin { mark(.handOver) }
    lastOrigin = origin
    written &+= UInt64(count)
  }

  /// The samples written from now on come from another stream (`change`).
  mutating func mark(_ change: SourceSwitch) {
    let kept: SourceSwitch = pending?.change == .newStream ? .newStream : change
    pending = (kept, written)
  }

  /// Everything buffered was dropped: no switch is pending, and the next write starts afresh.
  mutating func discarded() {
    lastOrigin = nil
    pending = nil
  }

  /// The pending switch once the reader has read past its first sample (`queued` samples are
  /// still unread), at most once.
  mutating func take(queued: Int) -> SourceSwitch? {
    guard let pending, pending.at < written &- UInt64(queued) else { return nil }
    self.pending = nil
    return pending.change
  }
}

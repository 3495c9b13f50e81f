/// Which of the capture's streams a write into the ``CaptureBuffer`` comes from. Consecutive
/// writes from two origins are a hand-over (``SourceSwitch/handOver``): the buffer marks it at
/// the first sample of the new origin, under the same lock as the samples, whatever thread
/// each stream runs on.
package enum CaptureOrigin: Sendable, Equatable {
  /// The whole output's stream (the default sink's monitor, a named source), a file, a fifo.
  case output
  /// The active player's own streams, summed (`input.scope = player`).
  case player
}

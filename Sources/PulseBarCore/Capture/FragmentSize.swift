/// A record stream's fragment, as the core decides it; the adapter turns it into bytes with
/// its own settings (sample rate, channels, the analysis rate).
package enum FragmentSize: Sendable, Equatable {
  /// The small fragment music starts with (PulseAudio).
  case onset
  /// The fragment once music plays steadily (PulseAudio).
  case steady
  /// One quantum of the graph running at `graphRate` (pipewire-pulse), throughout.
  case quantum(graphRate: UInt32)
}

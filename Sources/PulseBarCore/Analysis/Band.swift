import Glibc

/// One bar's frequency range, as FFT bins of one transform and as the Hz those bins cover.
package struct Band: Sendable, Equatable {
  package var transform: Transform
  /// First and last bin (inclusive) of `transform`'s spectrum.
  package var firstBin: Int
  package var lastBin: Int
  /// The lower edge of `firstBin` and the upper edge of `lastBin`, in Hz.
  package var lowerHz: Float
  package var upperHz: Float
}

import Glibc

/// The sizes of the analyser's two transforms for a sample rate.
///
/// The short transform is the largest power of two of at most 1/40 s (1024 at
/// 44.1 and 48 kHz): ~23 ms of audio, so onsets and the treble bars show within a
/// frame or two. The long one is four times that (4096: ~10.8 Hz bins, ~93 ms,
/// cava's size for all its bars) and serves every bar below
/// ``longTransformLimitHz``, where it buys resolution: a Hann-windowed tone
/// leaks into bins up to two bins away, so with the short transform's 43 Hz bins a
/// 2 kHz tone 37 Hz below a band edge puts a tenth of its level into the next bar;
/// with the long one, under 1 %.
package struct TransformSizes: Sendable, Equatable {
  package var short: Int
  package var long: Int
  package var sampleRate: Int

  package init(sampleRate: Int) {
    var size = 64
    while size * 2 <= sampleRate / 40 { size *= 2 }
    self.short = size
    self.long = size * 4
    self.sampleRate = sampleRate
  }

  /// Hz per bin of `transform`.
  package func binWidth(_ transform: Transform) -> Float {
    Float(sampleRate) / Float(transform == .long ? long : short)
  }

  /// Bands that end below this read the long transform, the rest the short one; the
  /// long spectrum is kept up to here. At 4 kHz the bands are wide (10 bars per channel
  /// between 50 Hz and 10 kHz: 3.5–5.9 kHz), so the switch costs little leakage, and a
  /// tone the long transform resolves (cava's 2 kHz test tone) does not reach a short band.
  package static let longTransformLimitHz: Float = 4000

  /// Highest bin of `transform` the analyser keeps: Nyquist for the short
  /// transform, ``longTransformLimitHz`` for the long one.
  package func lastBin(_ transform: Transform) -> Int {
    switch transform {
    case .short: return short / 2
    case .long: return min(long / 2, Int(Self.longTransformLimitHz / binWidth(.long)))
    }
  }
}

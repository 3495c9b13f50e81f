import Glibc

/// Which of the analyser's two transforms a bar reads.
package enum Transform: Sendable, Equatable {
  /// The long transform: fine frequency resolution, for every band below 4 kHz.
  case long
  /// The short transform: fast response, for the bands above 4 kHz.
  case short
}

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

/// Bars spaced geometrically between the low and high cutoff, as cava does, mapped to FFT bins.
///
/// Bar `n` of `N` (per channel) ideally covers `low·(high/low)^(n/N)` up to
/// `low·(high/low)^((n+1)/N)`. A bar owns the bins whose centres fall in its
/// range; where the range is narrower than a bin, the bar is pushed up to the
/// next free bin so every bar owns at least one, and later bars catch up with
/// the geometric series once bins are wider than one bar. The cutoffs
/// reported (`pulsebar bands`) are the edges of the bins a bar really reads.
package struct BandLayout: Sendable, Equatable {
  /// Bars per channel.
  package let barsPerChannel: Int
  /// The bands, lowest first; the same for every channel.
  package let bands: [Band]
  package let sizes: TransformSizes

  /// Lays out `barsPerChannel` bands; throws when the sample rate cannot give every bar a bin.
  package init(barsPerChannel: Int, lowCutoff: Float, highCutoff: Float, sizes: TransformSizes)
    throws(LayoutError)
  {
    guard barsPerChannel >= 1 else { throw LayoutError(message: "bars must be at least 1") }
    let nyquist = Float(sizes.sampleRate) / 2
    guard lowCutoff > 0, highCutoff > lowCutoff else {
      throw LayoutError(message: "high cutoff must be above low cutoff")
    }
    guard highCutoff <= nyquist else {
      throw LayoutError(
        message: "high cutoff \(highCutoff) Hz is above half the sample rate (\(nyquist) Hz)")
    }
    self.barsPerChannel = barsPerChannel
    self.sizes = sizes
    let ratio = highCutoff / lowCutoff
    var bands: [Band] = []
    bands.reserveCapacity(barsPerChannel)
    var previousUpperHz: Float = 0
    for bar in 0..<barsPerChannel {
      let idealLower = lowCutoff * powf(ratio, Float(bar) / Float(barsPerChannel))
      let idealUpper = lowCutoff * powf(ratio, Float(bar + 1) / Float(barsPerChannel))
      // Bins whose centres lie in [idealLower, idealUpper), starting above the previous bar.
      func bins(_ transform: Transform) -> (first: Int, last: Int) {
        let width = sizes.binWidth(transform)
        let firstFree = Int((previousUpperHz / width + 0.5 - 1e-4).rounded(.up))
        let first = max(1, Int((idealLower / width - 1e-4).rounded(.up)), firstFree)
        return (first, max(first, Int((idealUpper / width - 1e-4).rounded(.up)) - 1))
      }
      var transform: Transform =
        idealUpper <= TransformSizes.longTransformLimitHz ? .long : .short
      var (first, last) = bins(transform)
      // Hundreds of bars can push low bands past the long spectrum kept: then short bins.
      if transform == .long && last > sizes.lastBin(.long) {
        transform = .short
        (first, last) = bins(.short)
      }
      guard last <= sizes.lastBin(transform) else {
        throw LayoutError(
          message:
            "\(barsPerChannel) bars per channel do not fit between \(lowCutoff) and \(highCutoff) Hz at \(sizes.sampleRate) Hz"
        )
      }
      let width = sizes.binWidth(transform)
      let band = Band(
        transform: transform, firstBin: first, lastBin: last,
        lowerHz: (Float(first) - 0.5) * width, upperHz: (Float(last) + 0.5) * width)
      previousUpperHz = band.upperHz
      bands.append(band)
    }
    self.bands = bands
  }
}

/// A bar layout that cannot be made for these settings.
package struct LayoutError: Error, Equatable, CustomStringConvertible {
  package var message: String
  package var description: String { message }
}

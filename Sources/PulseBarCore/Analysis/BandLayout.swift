import Glibc

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

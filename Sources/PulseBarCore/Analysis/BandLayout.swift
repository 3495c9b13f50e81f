import Glibc

/// Which of the analyser's two transforms a bar reads.
public enum Transform: Sendable, Equatable {
  /// The long transform: fine frequency resolution for narrow low bands.
  case long
  /// The short transform: fast response for everything else.
  case short
}

/// One bar's frequency range, as FFT bins of one transform and as the Hz those bins cover.
public struct Band: Sendable, Equatable {
  public var transform: Transform
  /// First and last bin (inclusive) of `transform`'s spectrum.
  public var firstBin: Int
  public var lastBin: Int
  /// The lower edge of `firstBin` and the upper edge of `lastBin`, in Hz.
  public var lowerHz: Float
  public var upperHz: Float
}

/// The sizes of the analyser's two transforms for a sample rate.
///
/// The short transform is the largest power of two of at most 1/40 s (1024 at
/// 44.1 and 48 kHz): ~23 ms of audio, so onsets show within a frame or two.
/// The long one is four times that (4096: ~10.8 Hz bins) and serves only the
/// low bars that are narrower than two short bins, where it buys resolution.
public struct TransformSizes: Sendable, Equatable {
  public var short: Int
  public var long: Int
  public var sampleRate: Int

  public init(sampleRate: Int) {
    var size = 64
    while size * 2 <= sampleRate / 40 { size *= 2 }
    self.short = size
    self.long = size * 4
    self.sampleRate = sampleRate
  }

  /// Hz per bin of `transform`.
  public func binWidth(_ transform: Transform) -> Float {
    Float(sampleRate) / Float(transform == .long ? long : short)
  }

  /// The long transform only serves narrow low bands; its spectrum is kept up to here.
  public static let longTransformLimitHz: Float = 1500

  /// Highest bin of `transform` the analyser keeps: Nyquist for the short
  /// transform, ``longTransformLimitHz`` for the long one.
  public func lastBin(_ transform: Transform) -> Int {
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
public struct BandLayout: Sendable, Equatable {
  /// Bars per channel.
  public let barsPerChannel: Int
  /// The bands, lowest first; the same for every channel.
  public let bands: [Band]
  public let sizes: TransformSizes

  /// Lays out `barsPerChannel` bands; throws when the sample rate cannot give every bar a bin.
  public init(barsPerChannel: Int, lowCutoff: Float, highCutoff: Float, sizes: TransformSizes)
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
      let shortWidth = sizes.binWidth(.short)
      let narrow = idealUpper - idealLower < 2 * shortWidth
      let transform: Transform =
        narrow && idealUpper < TransformSizes.longTransformLimitHz ? .long : .short
      let width = sizes.binWidth(transform)
      // Bins whose centres lie in [idealLower, idealUpper), starting above the previous bar.
      let firstFree = Int((previousUpperHz / width + 0.5 - 1e-4).rounded(.up))
      let first = max(1, Int((idealLower / width - 1e-4).rounded(.up)), firstFree)
      let last = max(first, Int((idealUpper / width - 1e-4).rounded(.up)) - 1)
      guard last <= sizes.lastBin(transform) else {
        throw LayoutError(
          message:
            "\(barsPerChannel) bars per channel do not fit between \(lowCutoff) and \(highCutoff) Hz at \(sizes.sampleRate) Hz"
        )
      }
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
public struct LayoutError: Error, Equatable, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}

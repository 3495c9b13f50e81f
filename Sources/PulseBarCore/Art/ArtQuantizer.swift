/// Turns an image's pixels into an ``ArtPalette``: median cut over at most ``maximumSamples``
/// pixels, then every colour made readable on the bar's background. Pure and deterministic.
///
/// Median cut: the box of pixels with the widest channel range (weighted by its population)
/// is split at the median of that channel until there are `colors` boxes or none can split;
/// each box gives its mean colour. Colours are ranked by population.
package enum ArtQuantizer {
  /// Pixels looked at, evenly spaced over the image (a 3000×3000 cover decoded at 1/8 has
  /// 140 625).
  package static let maximumSamples = 1024
  /// The least WCAG contrast ratio a colour keeps with the background (3: large text, icons).
  package static let minimumContrast = 3.0

  /// The palette of `rgb` (3 bytes a pixel, red first), or `nil` for no pixels.
  package static func palette(
    rgb: UnsafeBufferPointer<UInt8>, background: RGBColor, colors: Int = 4
  ) -> ArtPalette? {
    let pixels = samples(rgb)
    guard !pixels.isEmpty else { return nil }
    let ranked = medianCut(pixels, boxes: max(1, colors))
    let readable = ranked.map { $0.readable(on: background, ratio: minimumContrast) }
    var unique: [RGBColor] = []
    for color in readable where !unique.contains(color) { unique.append(color) }
    let bySaturation = unique.sorted { $0.saturation > $1.saturation }
    return ArtPalette(
      bars: unique.sorted { $0.luminance < $1.luminance },
      glyph: bySaturation.first!, glyphDimmed: bySaturation.last!)
  }

  /// At most ``maximumSamples`` pixels, evenly spaced.
  static func samples(_ rgb: UnsafeBufferPointer<UInt8>) -> [RGBColor] {
    let count = rgb.count / 3
    guard count > 0 else { return [] }
    let step = max(1, count / maximumSamples)
    var pixels: [RGBColor] = []
    pixels.reserveCapacity(min(count, maximumSamples))
    var index = 0
    while index < count && pixels.count < maximumSamples {
      let at = index * 3
      pixels.append(RGBColor(red: rgb[at], green: rgb[at + 1], blue: rgb[at + 2]))
      index += step
    }
    return pixels
  }

  /// The mean colours of `boxes` median-cut boxes, most populous first.
  static func medianCut(_ pixels: [RGBColor], boxes: Int) -> [RGBColor] {
    var cuts: [ArraySlice<RGBColor>] = [pixels[...]]
    while cuts.count < boxes {
      let widest = cuts.indices.max { score(cuts[$0]) < score(cuts[$1]) }!
      guard score(cuts[widest]) > 0 else { break }
      let channel = widestChannel(cuts[widest])
      let sorted = Array(cuts[widest].sorted { channel($0) < channel($1) })
      let middle = split(sorted, by: channel)
      cuts[widest] = sorted[..<middle]
      cuts.append(sorted[middle...])
    }
    return cuts.sorted { $0.count > $1.count }.map(mean)
  }

  /// Where to cut `sorted` (by `channel`): the change of value nearest its median, so pixels
  /// of one value stay in one box (its mean is then their colour exactly).
  private static func split(_ sorted: [RGBColor], by channel: (RGBColor) -> UInt8) -> Int {
    let middle = sorted.count / 2
    var below = middle
    var above = middle
    while below > 0 && channel(sorted[below - 1]) == channel(sorted[below]) { below -= 1 }
    while above < sorted.count && channel(sorted[above - 1]) == channel(sorted[above]) {
      above += 1
    }
    if below == 0 { return above }
    if above == sorted.count { return below }
    return middle - below <= above - middle ? below : above
  }

  private static func range(_ box: ArraySlice<RGBColor>, _ channel: (RGBColor) -> UInt8) -> Int {
    var low = UInt8.max
    var high = UInt8.min
    for pixel in box {
      low = min(low, channel(pixel))
      high = max(high, channel(pixel))
    }
    return Int(high) - Int(low)
  }

  private static let channels: [@Sendable (RGBColor) -> UInt8] = [
    { $0.red }, { $0.green }, { $0.blue },
  ]

  /// How much splitting the box would gain: its widest range times its population (0 when it
  /// holds one colour or one pixel).
  private static func score(_ box: ArraySlice<RGBColor>) -> Int {
    guard box.count > 1 else { return 0 }
    return channels.map { range(box, $0) }.max()! * box.count
  }

  private static func widestChannel(_ box: ArraySlice<RGBColor>) -> (RGBColor) -> UInt8 {
    channels.max { range(box, $0) < range(box, $1) }!
  }

  private static func mean(_ box: ArraySlice<RGBColor>) -> RGBColor {
    var sums = (0, 0, 0)
    for pixel in box {
      sums.0 += Int(pixel.red)
      sums.1 += Int(pixel.green)
      sums.2 += Int(pixel.blue)
    }
    let count = max(1, box.count)
    func average(_ sum: Int) -> UInt8 { UInt8((sum + count / 2) / count) }
    return RGBColor(red: average(sums.0), green: average(sums.1), blue: average(sums.2))
  }
}

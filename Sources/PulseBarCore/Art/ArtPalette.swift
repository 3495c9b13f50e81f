import Glibc

/// Colours taken from a track's album art (``ArtQuantizer``): what `colors.from_art` puts in
/// place of `colors.bars` and the glyph's colours. Only this is kept of an image.
package struct ArtPalette: Sendable, Equatable {
  /// The bars' gradient, darkest first; every stop readable on the background.
  package var bars: [RGBColor]
  /// The glyph's colour while playing: the most saturated of the art's colours.
  package var glyph: RGBColor
  /// The glyph's colour while paused or stopped: the least saturated.
  package var glyphDimmed: RGBColor

  package init(bars: [RGBColor], glyph: RGBColor, glyphDimmed: RGBColor) {
    self.bars = bars
    self.glyph = glyph
    self.glyphDimmed = glyphDimmed
  }
}

extension RGBColor {
  /// WCAG relative luminance, 0 (black) … 1 (white).
  package var luminance: Double {
    func linear(_ channel: UInt8) -> Double {
      let value = Double(channel) / 255
      return value <= 0.039_28 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
  }

  /// WCAG contrast ratio with `other`, 1 … 21.
  package func contrast(with other: RGBColor) -> Double {
    let (a, b) = (luminance, other.luminance)
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)
  }

  /// Max minus min channel, 0 (grey) … 255.
  package var saturation: Int {
    Int(max(red, green, blue)) - Int(min(red, green, blue))
  }

  /// This colour moved `fraction` (0…1) of the way to `target`.
  package func mixed(toward target: RGBColor, fraction: Double) -> RGBColor {
    func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
      UInt8(min(255, max(0, (Double(a) + (Double(b) - Double(a)) * fraction).rounded())))
    }
    return RGBColor(
      red: mix(red, target.red), green: mix(green, target.green), blue: mix(blue, target.blue))
  }

  /// This colour, or the nearest mix of it toward white (on a dark background) or black (on a
  /// light one) whose contrast with `background` is at least `ratio`.
  package func readable(on background: RGBColor, ratio: Double) -> RGBColor {
    let target =
      background.luminance < 0.18
      ? RGBColor(red: 255, green: 255, blue: 255) : RGBColor(red: 0, green: 0, blue: 0)
    for step in 0...20 {
      let candidate = mixed(toward: target, fraction: Double(step) / 20)
      if candidate.contrast(with: background) >= ratio { return candidate }
    }
    return target
  }
}

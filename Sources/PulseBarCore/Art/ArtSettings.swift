/// `colors.from_art` and `colors.background`: what the players' thread needs to build an
/// ``ArtPalette`` (a reload posts a new one).
package struct ArtSettings: Sendable, Equatable {
  package var enabled: Bool
  package var background: RGBColor

  package init(enabled: Bool, background: RGBColor) {
    self.enabled = enabled
    self.background = background
  }

  package init(_ configuration: Configuration) {
    self.init(
      enabled: configuration.colorsFromArt,
      background: configuration.backgroundColor ?? RGBColor(red: 0, green: 0, blue: 0))
  }
}

import Testing

@testable import PulseBarCore

/// An ``ArtPalette`` in the rendered line: it replaces `colors.bars` and the glyph's colours,
/// and json carries it as `art_colors`; without one the configured colours stay.
@Suite struct ArtColorRenderTests {
  static let play = MorphGlyph.defaultFrames.last!
  static let palette = ArtPalette(
    bars: [
      RGBColor(red: 0x20, green: 0x40, blue: 0xe0), RGBColor(red: 0xe0, green: 0x20, blue: 0x20),
    ],
    glyph: RGBColor(red: 0xe0, green: 0x20, blue: 0x20),
    glyphDimmed: RGBColor(red: 0x20, green: 0x40, blue: 0xe0))

  static func line(_ format: OutputFormat, palette: ArtPalette?) -> String {
    var nowPlaying = NowPlaying(player: "mpv", status: .playing, title: "Song")
    nowPlaying.artPalette = palette
    return RenderTests.line(format, bars: [0, 1], nowPlaying: nowPlaying) {
      $0.markup = .polybar
      $0.bubbleMax = 0
      $0.barColors = [
        RGBColor(red: 0, green: 0, blue: 0), RGBColor(red: 255, green: 255, blue: 255),
      ]
      $0.playingColor = RGBColor(red: 0xa6, green: 0xe3, blue: 0xa1)
      $0.colorsFromArt = true
    } ?? ""
  }

  @Test func thePaletteReplacesTheConfiguredColours() {
    #expect(
      Self.line(.text, palette: Self.palette)
        == "%{F#e02020}\(Self.play)%{F-} %{F#2040e0}▁%{F-}%{F#e02020}█%{F-}\n")
    #expect(
      Self.line(.text, palette: nil)
        == "%{F#a6e3a1}\(Self.play)%{F-} %{F#000000}▁%{F-}%{F#ffffff}█%{F-}\n")
  }

  @Test func jsonCarriesThePalette() {
    #expect(
      Self.line(.json, palette: Self.palette).contains(
        ##","art_colors":{"gradient":["#2040e0","#e02020"],"playing":"#e02020","paused":"#2040e0"}"##
      ))
    #expect(!Self.line(.json, palette: nil).contains("art_colors"))
  }
}

import Testing

@testable import PulseBarCore

/// ``ArtQuantizer`` on synthesized pixel arrays: the colours it keeps, the contrast it ensures.
struct ArtQuantizerTests {
  private let black = RGBColor(red: 0, green: 0, blue: 0)
  private let white = RGBColor(red: 255, green: 255, blue: 255)

  /// `count` pixels of each colour, one block after the other.
  private func pixels(_ blocks: [(RGBColor, Int)]) -> [UInt8] {
    blocks.flatMap { color, count in
      Array(repeating: [color.red, color.green, color.blue], count: count).flatMap { $0 }
    }
  }

  private func palette(_ rgb: [UInt8], on background: RGBColor, colors: Int = 4) -> ArtPalette? {
    rgb.withUnsafeBufferPointer {
      ArtQuantizer.palette(rgb: $0, background: background, colors: colors)
    }
  }

  @Test func twoReadableColoursAreKeptExactlyDarkestFirst() throws {
    let red = RGBColor(red: 230, green: 40, blue: 40)
    let cyan = RGBColor(red: 60, green: 220, blue: 230)
    let result = try #require(palette(pixels([(red, 900), (cyan, 300)]), on: black))
    #expect(result.bars == [red, cyan])
    #expect(result.glyph == red)
    #expect(result.glyphDimmed == cyan)
  }

  @Test func theMostPopulousColoursWinOverARareOne() throws {
    let orange = RGBColor(red: 250, green: 140, blue: 20)
    let green = RGBColor(red: 40, green: 200, blue: 90)
    let rare = RGBColor(red: 20, green: 60, blue: 250)
    let rgb = pixels([(orange, 2000), (green, 1990), (rare, 10)])
    let result = try #require(palette(rgb, on: black, colors: 2))
    // The rare colour joins a box: its mean moves by a unit or two at most.
    func near(_ a: RGBColor, _ b: RGBColor) -> Bool {
      [(a.red, b.red), (a.green, b.green), (a.blue, b.blue)].allSatisfy {
        abs(Int($0) - Int($1)) <= 3
      }
    }
    #expect(result.bars.count == 2)
    #expect(result.bars.contains { near($0, orange) } && result.bars.contains { near($0, green) })
  }

  @Test(arguments: [(0, 0, 0), (30, 30, 46), (255, 255, 255), (240, 240, 200)])
  func everyColourIsReadableOnTheBackground(red: Int, green: Int, blue: Int) throws {
    let background = RGBColor(red: UInt8(red), green: UInt8(green), blue: UInt8(blue))
    let near = background.mixed(toward: RGBColor(red: 128, green: 0, blue: 128), fraction: 0.1)
    let rgb = pixels([(near, 500), (background, 500), (RGBColor(red: 90, green: 90, blue: 20), 50)])
    let result = try #require(palette(rgb, on: background))
    for color in result.bars + [result.glyph, result.glyphDimmed] {
      #expect(color.contrast(with: background) >= ArtQuantizer.minimumContrast, "\(color)")
    }
  }

  @Test func aDarkCoverOnADarkBarIsLightened() throws {
    let navy = RGBColor(red: 10, green: 10, blue: 60)
    let result = try #require(palette(pixels([(navy, 100)]), on: black))
    #expect(result.bars.count == 1)
    #expect(result.bars[0] != navy)
    #expect(result.bars[0].luminance > navy.luminance)
  }

  @Test func noPixelsGiveNoPalette() {
    #expect(palette([], on: black) == nil)
    #expect(palette([1, 2], on: black) == nil)
  }

  @Test func aLargeImageIsSampledNotWalkedWhole() throws {
    // 1000×1000 pixels of a horizontal ramp: the palette spans it from samples alone.
    var rgb: [UInt8] = []
    rgb.reserveCapacity(3_000_000)
    for _ in 0..<1000 {
      for x in 0..<1000 { rgb += [UInt8(x / 4), 255 - UInt8(x / 4), 128] }
    }
    let samples = rgb.withUnsafeBufferPointer { ArtQuantizer.samples($0) }
    #expect(samples.count == ArtQuantizer.maximumSamples)
    let result = try #require(palette(rgb, on: white))
    #expect(result.bars.count == 4)
  }
}

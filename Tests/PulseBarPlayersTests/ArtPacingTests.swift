import Glibc
import PulseBarCore
import PulseBarSystem
import Testing

@testable import PulseBarPlayers

/// A player flipping its art URL gets at most one decode each ``ArtFinder/decodeInterval``, the
/// latest URL winning, and covers seen lately cost nothing again. Real files, exact times.
@Suite struct ArtPacingTests {
  @Test func flippingBetweenTwoCoversDecodesEachOnce() {
    let images = ArtDecoderTests.Images()
    let red = "file://" + images.make("red.png", "-size 8x8 xc:'\(ArtDecoderTests.red)'")
    let cyan = "file://" + images.make("cyan.png", "-size 8x8 xc:'\(ArtDecoderTests.cyan)'")
    var finder = ArtFinderTests.finder()
    var decodes = 0
    var shown: [ArtPalette?] = []
    // 24 flips a second for 5 s.
    for flip in 0..<120 {
      let url = flip.isMultiple(of: 2) ? red : cyan
      shown.append(finder.palette(for: url, at: Double(flip) / 24) { _ in decodes += 1 })
      if let due = finder.nextDue, due <= Double(flip + 1) / 24 {
        shown.append(finder.palette(for: url, at: due) { _ in decodes += 1 })
      }
    }
    let bars = shown.compactMap { $0?.bars.first }
    #expect(bars.contains(ArtDecoderTests.red) && bars.contains(ArtDecoderTests.cyan))
    // Only the images' decodes: the finder says nothing for a decode that works.
    #expect(decodes == 0)
    #expect(finder.decodes == 2, "\(finder.decodes) decodes")
  }

  @Test func manyURLsDecodeOnceASecondAndTheLatestWins() throws {
    let images = ArtDecoderTests.Images()
    let urls = (0..<40).map {
      "file://" + images.make("c\($0).png", "-size 4x4 xc:'rgb(\($0 * 6),40,200)'")
    }
    var finder = ArtFinderTests.finder()
    for (index, url) in urls.enumerated() {
      _ = finder.palette(for: url, at: Double(index) / 20) { _ in }
    }
    #expect(finder.decodes == 2, "2 s of changes at 20 a second: \(finder.decodes) decodes")
    let due = try #require(finder.nextDue)
    #expect(due == 2)
    let latest = finder.palette(for: urls[39], at: due) { _ in }
    #expect(latest?.bars.first == RGBColor(red: 234, green: 40, blue: 200))
    #expect(finder.decodes == 3 && finder.nextDue == nil)
  }
}

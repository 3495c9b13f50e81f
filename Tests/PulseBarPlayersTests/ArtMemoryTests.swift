import Glibc
import PulseBarSystem
import Testing

@testable import PulseBarCore
@testable import PulseBarPlayers

/// Art's memory is decided from the header before decoding: a progressive or multi-scan JPEG
/// (whose coefficients libjpeg holds for the whole image) and a PNG (decoded at full size) are
/// refused when they would take more than ``ArtDecoder/maximumMemoryBytes``; a baseline JPEG
/// of any allowed size decodes scaled. Images made by ImageMagick, some with their frame
/// header's size raised (the decision reads only the header).
@Suite struct ArtMemoryTests {
  typealias Images = ArtDecoderTests.Images

  static func palette(_ bytes: [UInt8]) -> Result<ArtPalette, ArtDecoder.Failure> {
    ArtDecoderTests.palette(bytes)
  }

  /// `bytes` with the first JPEG frame header (SOF0–SOF2) saying `width`×`height`.
  static func resized(_ bytes: [UInt8], width: Int, height: Int) -> [UInt8] {
    var bytes = bytes
    var at = 2
    while at + 9 < bytes.count, bytes[at] == 0xFF {
      let marker = bytes[at + 1]
      if (0xC0...0xC2).contains(marker) {
        bytes[at + 5] = UInt8(height >> 8)
        bytes[at + 6] = UInt8(height & 255)
        bytes[at + 7] = UInt8(width >> 8)
        bytes[at + 8] = UInt8(width & 255)
        return bytes
      }
      at += 2 + (Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]))
    }
    Issue.record("no frame header")
    return bytes
  }

  /// The hostile image: 8192×8192 progressive, colour and greyscale, a few hundred bytes.
  @Test(arguments: ["", "-colorspace Gray"])
  func a8192ProgressiveJPEGIsRefusedFromItsHeader(colour: String) {
    let images = Images()
    let small = ArtDecoderTests.bytes(
      images.make("p.jpg", "-size 64x64 plasma:fractal -seed 5 \(colour) -interlace JPEG"))
    #expect((try? Self.palette(small).get()) != nil, "a small progressive JPEG decodes")
    let start = monotonicSeconds()
    let result = Self.palette(Self.resized(small, width: 8192, height: 8192))
    let elapsed = monotonicSeconds() - start
    let line = result.failure?.description ?? ""
    #expect(line.contains("8192x8192 px progressive or multi-scan JPEG"), "\(line)")
    #expect(line.contains("over 27 MB") || line.contains("over 28 MB"), "\(line)")
    #expect(elapsed < 0.02, "refused before decoding: \(elapsed) s")
  }

  /// At 2400×2400 with full-resolution colour, a progressive JPEG's coefficients take 33 MB;
  /// the same picture as a baseline JPEG decodes at 1/8 in a few.
  @Test func progressiveOverTheBudgetIsRefusedAndBaselineDecodes() throws {
    let images = Images()
    let picture = "-size 2400x2400 plasma:fractal -seed 9 -sampling-factor 1x1 -quality 80"
    let baseline = ArtDecoderTests.bytes(images.make("b.jpg", picture))
    let progressive = ArtDecoderTests.bytes(images.make("p.jpg", picture + " -interlace JPEG"))
    _ = try Self.palette(baseline).get()
    let line = Self.palette(progressive).failure?.description ?? ""
    #expect(line.contains("2400x2400 px progressive or multi-scan JPEG: 33 MB"), "\(line)")
  }

  /// A baseline 8192×8192 frame is allowed: scaled by 1/8, it takes 3 MB (and is then broken,
  /// its data being a 64×64 picture's).
  @Test func a8192BaselineJPEGIsNotRefusedForItsSize() {
    let images = Images()
    let small = ArtDecoderTests.bytes(images.make("b.jpg", "-size 64x64 plasma:fractal -seed 5"))
    let line = Self.palette(Self.resized(small, width: 8192, height: 8192)).failure?.description
    #expect(line?.contains("MB to decode") == false, "\(line ?? "decoded")")
  }

  /// A 4096×4096 PNG would take 48 MB of pixels: refused; 2048×2048 (12 MB) decodes.
  @Test func aPNGIsRefusedWhenItsPixelsPassTheBudget() throws {
    let images = Images()
    let large = ArtDecoderTests.bytes(images.make("l.png", "-size 4096x4096 xc:red"))
    let line = Self.palette(large).failure?.description ?? ""
    #expect(line == "4096x4096 px PNG: 48 MB to decode, over 27 MB", "\(line)")
    let fits = ArtDecoderTests.bytes(images.make("f.png", "-size 2048x2048 xc:red"))
    #expect(try Self.palette(fits).get().bars.count == 1)
  }
}

import Glibc
import PulseBarSystem
import Testing

@testable import PulseBarCore
@testable import PulseBarPlayers

/// Album art decoded for real (TurboJPEG, libpng) from images ImageMagick makes, and what is
/// refused cleanly: truncated, corrupt, oversized and non-image files.
@Suite struct ArtDecoderTests {
  static let black = RGBColor(red: 0, green: 0, blue: 0)
  static let red = RGBColor(red: 224, green: 32, blue: 32)
  static let cyan = RGBColor(red: 32, green: 208, blue: 224)

  /// A fresh directory for the images.
  final class Images {
    let directory: String

    init() {
      var template = Array("/tmp/pulsebar-art XXXXXX".utf8CString)
      directory = template.withUnsafeMutableBufferPointer {
        String(cString: mkdtemp($0.baseAddress!)!)
      }
    }

    deinit { _ = system("rm -rf '\(directory)'") }

    /// `name` made by `convert ARGUMENTS name` in the directory; its path.
    func make(_ name: String, _ arguments: String) -> String {
      let path = directory + "/" + name
      #expect(system("convert \(arguments) '\(path)'") == 0, "convert \(arguments)")
      return path
    }

    /// Red and cyan halves, 200×100.
    func halves(_ name: String) -> String {
      make(name, "-size 100x100 xc:'\(red)' xc:'\(cyan)' +append")
    }
  }

  static func bytes(_ path: String) -> [UInt8] {
    (try? RegularFile.read(path, maximumBytes: 64 << 20)) ?? []
  }

  static func palette(_ bytes: [UInt8]) -> Result<ArtPalette, ArtDecoder.Failure> {
    Result { () throws(ArtDecoder.Failure) in try ArtDecoder.palette(of: bytes, background: black) }
  }

  static func near(_ a: RGBColor, _ b: RGBColor, within tolerance: Int = 12) -> Bool {
    abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance
      && abs(Int(a.blue) - Int(b.blue)) <= tolerance
  }

  @Test func aPNGGivesItsColoursExactly() throws {
    let images = Images()
    let result = try Self.palette(Self.bytes(images.halves("cover.png"))).get()
    #expect(result.bars == [Self.red, Self.cyan])
  }

  @Test func aJPEGGivesItsColoursWithinItsLoss() throws {
    let images = Images()
    let result = try Self.palette(Self.bytes(images.halves("cover.jpg"))).get()
    #expect(result.bars.contains { Self.near($0, Self.red) }, "\(result.bars)")
    #expect(result.bars.contains { Self.near($0, Self.cyan) }, "\(result.bars)")
  }

  @Test(arguments: ["cover.jpg", "cover.png"])
  func truncatedImagesFailCleanly(name: String) {
    let images = Images()
    let whole = Self.bytes(images.make(name, "-size 300x300 plasma:fractal -seed 7"))
    for length in [whole.count / 2, whole.count * 9 / 10, 12, 3] {
      #expect(throws: ArtDecoder.Failure.self, "\(length) bytes") {
        try ArtDecoder.palette(of: Array(whole.prefix(length)), background: Self.black)
      }
    }
  }

  @Test(arguments: ["cover.jpg", "cover.png"])
  func corruptImagesFailCleanly(name: String) {
    let images = Images()
    var bytes = Self.bytes(images.make(name, "-size 300x300 plasma:fractal -seed 7"))
    for index in 16..<min(bytes.count, 400) { bytes[index] = 0xFF ^ bytes[index] }
    #expect(throws: ArtDecoder.Failure.self) {
      try ArtDecoder.palette(of: bytes, background: Self.black)
    }
  }

  @Test(arguments: ["wide.jpg", "wide.png", "tall.png"])
  func imagesOver8192PixelsASideAreRefusedBeforeDecoding(name: String) {
    let images = Images()
    let size = name.hasPrefix("wide") ? "8193x4" : "4x9000"
    let result = Self.palette(Self.bytes(images.make(name, "-size \(size) xc:red")))
    #expect(result.failure?.description.contains("8192 px a side") == true, "\(result)")
  }

  @Test func filesOver16MBAndNonImagesAreRefused() {
    let big = [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0, count: ArtSource.maximumImageBytes)
    #expect(Self.palette(big).failure?.description.contains("larger than") == true)
    let text = Array("GIF89a not supported".utf8)
    #expect(Self.palette(text).failure?.description == "neither a JPEG nor a PNG")
  }
}

/// The budget: a 3000×3000 JPEG cover read, decoded and quantized in about 30 ms of CPU.
@Suite struct ArtBudgetTests {
  @Test func aLargeJPEGCoverFitsTheBudget() throws {
    let images = ArtDecoderTests.Images()
    let path = images.make("cover.jpg", "-size 3000x3000 plasma:fractal -seed 3 -quality 90")
    // CPU time of this thread: the machine's other builds and tests do not count.
    func cpuSeconds() -> Double {
      var time = timespec()
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
      return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    var best = Double.infinity
    var wall = Double.infinity
    var reading = Double.infinity
    for _ in 0..<7 {
      let (start, startWall) = (cpuSeconds(), monotonicSeconds())
      let bytes = try RegularFile.read(path, maximumBytes: ArtSource.maximumImageBytes)
      reading = min(reading, cpuSeconds() - start)
      _ = try ArtDecoder.palette(of: bytes, background: ArtDecoderTests.black)
      best = min(best, cpuSeconds() - start)
      wall = min(wall, monotonicSeconds() - startWall)
    }
    let pixels = [UInt8](repeating: 0, count: 375 * 375 * 3).enumerated().map {
      UInt8(truncatingIfNeeded: $0.offset * 2_654_435_761 >> 7)
    }
    let quantizeStart = cpuSeconds()
    _ = pixels.withUnsafeBufferPointer {
      ArtQuantizer.palette(rgb: $0, background: ArtDecoderTests.black)
    }
    let quantizing = cpuSeconds() - quantizeStart
    print(
      "art budget: 3000x3000 JPEG read, decoded at 1/8 and quantized in "
        + "\(Int(best * 1000)) ms of CPU (\(Int(wall * 1000)) ms wall; reading "
        + "\(Int(reading * 1000)) ms, quantizing 375x375 px \(Int(quantizing * 1000)) ms)")
    // The budget is 30 ms (bench/README.md "Album art"); the check allows a third more, as this
    // debug build shares its two cores with other builds (measured: 30–32 ms at a load of 6–9).
    #expect(best <= 0.040, "\(best * 1000) ms")
  }
}

extension Result {
  var failure: Failure? {
    if case .failure(let failure) = self { failure } else { nil }
  }
}

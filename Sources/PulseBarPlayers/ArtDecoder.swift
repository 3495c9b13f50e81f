internal import CAudioLibraries
import PulseBarCore

/// An image's bytes to an ``ArtPalette``: TurboJPEG (decoding at 1/8 size or so) or libpng's
/// simplified API, both opened on first use (`pulsebar_decode_image`), then ``ArtQuantizer``.
/// The pixels are freed before it returns: only the palette is kept.
///
/// The memory a decode takes is known from the header before anything is decoded, and the
/// image is refused when the bytes and what the decoder holds besides them would pass
/// ``maximumMemoryBytes``: a PNG's full-size pixels, a progressive or multi-scan JPEG's
/// coefficients (libjpeg holds the whole image's then, whatever the scaling), a JPEG's scaled
/// pixels. A hostile 8192×8192 progressive JPEG of 394 KB took 224 MB; it is refused now.
package enum ArtDecoder {
  /// The most pixels a side of either format, checked from the header before decoding.
  package static let maximumSide = 8192
  /// The most memory a decode holds, its bytes included: under the 32 MB over the daemon's
  /// normal RSS that art may cost (the quantizer's few kilobytes aside).
  package static let maximumMemoryBytes = 28 << 20
  /// The shorter side a JPEG is scaled down to, not below (its scaling steps are eighths).
  package static let jpegTargetSide = 64

  /// Why an image gave no palette: one line.
  package struct Failure: Error, Equatable, CustomStringConvertible {
    package let description: String
  }

  /// The palette of the JPEG or PNG in `bytes`, readable on `background`.
  package static func palette(of bytes: [UInt8], background: RGBColor) throws(Failure)
    -> ArtPalette
  {
    guard bytes.count <= ArtSource.maximumImageBytes else {
      throw Failure(description: "larger than \(ArtSource.maximumImageBytes) bytes")
    }
    var limits = pulsebar_image_limits(
      max_bytes: ArtSource.maximumImageBytes, max_side: Int32(maximumSide),
      max_working_bytes: maximumMemoryBytes - bytes.count, target_side: Int32(jpegTargetSide))
    var image = pulsebar_image()
    var error = [CChar](repeating: 0, count: 256)
    let status = bytes.withUnsafeBufferPointer { data in
      pulsebar_decode_image(data.baseAddress, data.count, &limits, &image, &error, error.count)
    }
    guard status == 0, let pixels = image.pixels else {
      throw Failure(
        description: String(
          decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    defer { pulsebar_image_free(&image) }
    let count = Int(image.width) * Int(image.height) * 3
    guard
      let palette = ArtQuantizer.palette(
        rgb: UnsafeBufferPointer(start: pixels, count: count), background: background)
    else { throw Failure(description: "no pixels") }
    return palette
  }
}

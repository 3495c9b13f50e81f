import PulseBarCore
import PulseBarPlayers

/// libFuzzer entry: the input is an image file (JPEG, PNG or anything), as `colors.from_art`
/// reads one. `ArtDecoder` (TurboJPEG at reduced size, libpng's simplified API, then
/// `ArtQuantizer`) gives a palette or one error line, never a crash, a leak or an overread:
/// every palette colour keeps ``ArtQuantizer/minimumContrast`` with the background, the
/// gradient darkest first, at most four stops. The same bytes as a URI go through
/// `ArtSource.parse`, and as base64 through `Base64.decode` (3 bytes per 4 characters at most).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let background =
    bytes.first.map { RGBColor(red: $0, green: $0 &* 7, blue: $0 &* 13) }
    ?? RGBColor(red: 0, green: 0, blue: 0)
  do throws(ArtDecoder.Failure) {
    check(try ArtDecoder.palette(of: bytes, background: background), on: background)
  } catch {
    guard !error.description.isEmpty, !error.description.contains("\n") else {
      fatalError("bad error line: \(error.description.debugDescription)")
    }
  }
  let text = String(decoding: bytes, as: UTF8.self)
  if case .file(let path) = ArtSource.parse(text) {
    guard path.first == "/", !path.utf8.contains(0) else { fatalError("bad path \(path)") }
  }
  if let decoded = Base64.decode(bytes), decoded.count > size / 4 * 3 + 2 {
    fatalError("\(decoded.count) bytes from \(size) characters")
  }
  return 0
}

private func check(_ palette: ArtPalette, on background: RGBColor) {
  let colors = palette.bars + [palette.glyph, palette.glyphDimmed]
  guard !palette.bars.isEmpty, palette.bars.count <= 4 else {
    fatalError("\(palette.bars.count) stops")
  }
  for color in colors where color.contrast(with: background) < ArtQuantizer.minimumContrast - 1e-9 {
    // Only white or black itself may fall short, on a background too mid-grey for either.
    let extreme =
      color == RGBColor(red: 255, green: 255, blue: 255)
      || color == RGBColor(red: 0, green: 0, blue: 0)
    guard extreme else { fatalError("\(color) on \(background): unreadable") }
  }
  for (low, high) in zip(palette.bars, palette.bars.dropFirst())
  where low.luminance > high.luminance {
    fatalError("gradient not darkest first: \(palette.bars)")
  }
}

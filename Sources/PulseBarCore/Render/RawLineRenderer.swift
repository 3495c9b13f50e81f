/// The `raw` format: cava's raw ASCII, each bar `0…raw_max` then `;`. Stereo mirrors the
/// left channel (high→low) against the right (low→high), as cava does.
struct RawLineRenderer {
  var filter = LineFilter()
  let rawMax: Float
  var mirrored: Bool

  mutating func render(bars: UnsafeBufferPointer<Float>) -> Bool {
    filter.body.removeAll()
    let count = bars.count
    let stereoHalf = count / 2
    for position in 0..<count {
      var index = position
      if mirrored && position < stereoHalf { index = stereoHalf - 1 - position }
      filter.body.append(integer: UInt64(min(max(bars[index], 0), 1) * rawMax + 0.5))
      filter.body.append(UInt8(ascii: ";"))
    }
    guard filter.offer() else { return false }
    filter.line.append(filter.written)
    filter.line.append(UInt8(ascii: "\n"))
    return true
  }
}

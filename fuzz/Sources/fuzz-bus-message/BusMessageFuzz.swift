import PulseBarCore
import PulseBarPlayers

/// libFuzzer entry: the input is a program of `a{sv}` entries (``BusMessageFuzzing``), built
/// into a real `PropertiesChanged` message and driven through the whole player path
/// (``PlayerPathFuzzing``): the bus boundary, the registry, the position over days, a rendered
/// now-playing line in text, waybar and json. Nothing a player sends gets past the bus
/// boundary's caps (each text at most 1,000 bytes, a length a positive whole number of
/// microseconds up to a week, a position and rate within ``PlayerValueBounds``), nothing traps,
/// the position shown stays within them, and every line is one line with no control byte.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBusMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let outcome = PlayerPathFuzzing.drive(UnsafeRawBufferPointer(start: data, count: size))
  else { return 0 }
  let boundary = outcome.boundary
  for (name, text) in [
    ("title", boundary.title), ("artist", boundary.artist), ("album", boundary.album),
  ] {
    if let text, text.utf8.count > 1000 || text.isEmpty {
      fatalError("\(name) of \(text.utf8.count) bytes passed the bus boundary")
    }
  }
  if let length = boundary.length, !(length > 0 && length <= PlayerValueBounds.maximumLengthSeconds)
  {
    fatalError("length \(length) passed the bus boundary")
  }
  if let position = boundary.position,
    !(0...PlayerValueBounds.maximumPositionMicroseconds).contains(position)
  {
    fatalError("position \(position) passed the bus boundary")
  }
  if let rate = boundary.rate, !PlayerValueBounds.rateRange.contains(rate) {
    fatalError("rate \(rate) passed the bus boundary")
  }
  if let position = outcome.position,
    !(position >= 0 && position <= PlayerValueBounds.maximumPositionSeconds)
  {
    fatalError("position \(position) s shown")
  }
  for line in outcome.lines {
    let bytes = Array(line.utf8)
    if bytes.last != UInt8(ascii: "\n")
      || bytes.dropLast().contains(where: { $0 < 0x20 || $0 == 0x7F })
    {
      fatalError("not one clean line: \(bytes)")
    }
  }
  return 0
}

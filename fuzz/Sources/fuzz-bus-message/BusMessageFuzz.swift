import PulseBarPlayers

/// libFuzzer entry: the input is a program of `a{sv}` entries (``BusMessageFuzzing``), built
/// into a real `PropertiesChanged` message and read as the players' thread reads one. Nothing
/// a player sends gets past the bus boundary's caps: each text at most 1,000 bytes, a length
/// only a positive whole number of microseconds up to a week.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBusMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let outcome = BusMessageFuzzing.read(UnsafeRawBufferPointer(start: data, count: size))
  else { return 0 }
  for (name, text) in [
    ("title", outcome.title), ("artist", outcome.artist), ("album", outcome.album),
  ] {
    if let text, text.utf8.count > 1000 || text.isEmpty {
      fatalError("\(name) of \(text.utf8.count) bytes passed the bus boundary")
    }
  }
  if let length = outcome.length, !(length > 0 && length <= 7 * 24 * 3600) {
    fatalError("length \(length) passed the bus boundary")
  }
  return 0
}

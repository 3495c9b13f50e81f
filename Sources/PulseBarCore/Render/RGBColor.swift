/// A 24-bit colour from the config (`#rrggbb`), as `[colors]` spells it.
package struct RGBColor: Sendable, Equatable, CustomStringConvertible {
  package var red: UInt8
  package var green: UInt8
  package var blue: UInt8

  package init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// Parses `#rrggbb` (either case); `nil` for anything else.
  package init?(parsing text: some StringProtocol) {
    let bytes = Array(text.utf8)
    guard bytes.count == 7, bytes[0] == UInt8(ascii: "#") else { return nil }
    var channels: [UInt8] = []
    for pair in stride(from: 1, to: 7, by: 2) {
      guard let high = Self.nibble(bytes[pair]), let low = Self.nibble(bytes[pair + 1]) else {
        return nil
      }
      channels.append(high << 4 | low)
    }
    self.init(red: channels[0], green: channels[1], blue: channels[2])
  }

  private static func nibble(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// `#rrggbb` in lower case.
  package var description: String {
    let digits = Array("0123456789abcdef".utf8)
    var bytes: [UInt8] = [UInt8(ascii: "#")]
    for channel in [red, green, blue] {
      bytes.append(digits[Int(channel >> 4)])
      bytes.append(digits[Int(channel & 0xF)])
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The colour at `t` (0…1) along evenly spaced `stops`, each channel interpolated linearly.
  package static func gradient(_ stops: [RGBColor], at t: Float) -> RGBColor {
    guard stops.count > 1 else { return stops.first ?? RGBColor(red: 0, green: 0, blue: 0) }
    let scaled = min(max(t, 0), 1) * Float(stops.count - 1)
    let index = min(Int(scaled), stops.count - 2)
    let fraction = scaled - Float(index)
    let from = stops[index]
    let to = stops[index + 1]
    func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
      UInt8(min(255, max(0, (Float(a) + (Float(b) - Float(a)) * fraction).rounded())))
    }
    return RGBColor(
      red: mix(from.red, to.red), green: mix(from.green, to.green), blue: mix(from.blue, to.blue))
  }
}

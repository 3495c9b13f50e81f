internal import CSystemd
import Glibc

// MARK: - Writing a call's arguments, and reading what `ctl` needs back

extension BusMessage {
  /// Appends an `x` (a position or an offset in microseconds).
  func append(int64 value: Int64) throws(BusError) {
    var value = value
    let result = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "x")), &value)
    if result < 0 { throw BusError("append", code: result) }
  }

  /// Appends a string of D-Bus type `type` (`s`, or `o` for an object path, which sd-bus
  /// checks).
  func append(_ text: String, type: UInt8 = UInt8(ascii: "s")) throws(BusError) {
    let result = text.withCString {
      sd_bus_message_append_basic(message, CChar(bitPattern: type), $0)
    }
    if result < 0 { throw BusError("append", code: result) }
  }

  /// Appends a `v` holding a `d` (a property's new value for `Properties.Set`).
  func appendVariant(double value: Double) throws(BusError) {
    var value = value
    var result = sd_bus_message_open_container(message, CChar(UInt8(ascii: "v")), "d")
    if result >= 0 {
      result = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "d")), &value)
    }
    if result >= 0 { result = sd_bus_message_close_container(message) }
    if result < 0 { throw BusError("append", code: result) }
  }

  /// The longest `mpris:trackid` taken back to the player: an object path longer than this
  /// is refused rather than cut (a cut path names another track).
  static let maximumTrackIDBytes = 4096

  /// A string of type `type` (`o` or `s`) at the message's position, whole: `consumed` says
  /// whether it was read, `text` is `nil` when it is over ``maximumTrackIDBytes``.
  private func readWhole(type: UInt8) -> (consumed: Bool, text: String?) {
    var pointer: UnsafePointer<CChar>?
    guard sd_bus_message_read_basic(message, CChar(bitPattern: type), &pointer) > 0, let pointer
    else { return (false, nil) }
    guard strnlen(pointer, Self.maximumTrackIDBytes + 1) <= Self.maximumTrackIDBytes else {
      return (true, nil)
    }
    return (true, String(cString: pointer))
  }

  /// A `Properties.Get` reply's `v`, when it holds a `d` (unbounded: the caller bounds it).
  func readVariantDouble() -> Double? {
    guard enter(UInt8(ascii: "v"), "d") else { return nil }
    defer { exit() }
    return readNumber(type: UInt8(ascii: "d"))
  }

  /// A `Properties.Get` reply for `Metadata`: its `mpris:trackid`, when it has one of at most
  /// ``maximumTrackIDBytes`` (some players send a string rather than an object path; sd-bus
  /// checks it is a path when it is sent back).
  func readTrackID() -> String? {
    guard enter(UInt8(ascii: "v"), "a{sv}") else { return nil }
    defer { exit() }
    var trackID: String?
    forEachProperty { key, type in
      guard key == "mpris:trackid", type == "o" || type == "s" else { return false }
      let (consumed, text) = readWhole(type: type.utf8.first!)
      trackID = text
      return consumed
    }
    return trackID
  }
}

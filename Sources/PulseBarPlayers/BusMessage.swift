internal import CSystemd
import Glibc
import PulseBarCore

/// One D-Bus message (`sd_bus_message *`), read front to back: strings, string arrays, and the
/// `a{sv}` dictionaries MPRIS speaks. Holds a reference while it lives.
///
/// The bus boundary: what a player sends is untrusted (any program can claim an MPRIS name,
/// and a browser publishes what a web page chooses), so reading caps it here, before anything
/// is stored: a string keeps at most ``UntrustedText/maximumBytes`` (cut on a character
/// boundary, without reading the rest), an artist list at most ``maximumArtists`` names, and a
/// metadata key pulsebar does not show is skipped without being read.
struct BusMessage {
  /// Frees the reference when the last copy goes.
  private final class Reference {
    let message: OpaquePointer
    init(_ message: OpaquePointer) { self.message = message }
    deinit { sd_bus_message_unref(message) }
  }

  private let reference: Reference
  var message: OpaquePointer { reference.message }

  /// Takes over a reference the caller owns.
  init(adopting message: OpaquePointer) { reference = Reference(message) }

  /// Takes a new reference to a message sd-bus lends a callback.
  init(borrowing message: OpaquePointer) {
    reference = Reference(sd_bus_message_ref(message))
  }

  /// The member (method or signal name).
  var member: String? { sd_bus_message_get_member(message).map { String(cString: $0) } }

  /// The unique name of the connection that sent it.
  var sender: String? { sd_bus_message_get_sender(message).map { String(cString: $0) } }

  /// For a reply: the cookie of the call it answers.
  var replyCookie: UInt64? {
    var cookie: UInt64 = 0
    return sd_bus_message_get_reply_cookie(message, &cookie) >= 0 ? cookie : nil
  }

  /// For an error reply: its message.
  var errorText: String? {
    guard let error = sd_bus_message_get_error(message) else { return nil }
    return error.pointee.message.map { String(cString: $0) }
      ?? error.pointee.name.map { String(cString: $0) }
  }

  // MARK: - Reading

  /// The next value's type code and, for containers, its contents' signature.
  func peek() -> (type: UInt8, contents: String?)? {
    var type: CChar = 0
    var contents: UnsafePointer<CChar>?
    guard sd_bus_message_peek_type(message, &type, &contents) > 0 else { return nil }
    return (UInt8(bitPattern: type), contents.map { String(cString: $0) })
  }

  /// Artists kept from an `xesam:artist` list.
  static let maximumArtists = 16
  /// The longest `xesam:url` kept (`PATH_MAX`): a longer one is left out, never cut (a cut
  /// path could name another file).
  static let maximumURLBytes = 4096

  /// The next string, cut to at most `maximumBytes` (see the type's docs); invalid UTF-8
  /// becomes U+FFFD.
  func readString(maximumBytes: Int = UntrustedText.maximumBytes) -> String? {
    var pointer: UnsafePointer<CChar>?
    guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &pointer) > 0,
      let pointer
    else { return nil }
    // A few bytes past the cap, so the cut can keep a character's combining marks; strnlen
    // never reads further.
    let length = strnlen(pointer, maximumBytes + 16)
    let text = pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
      String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
    return UntrustedText.capped(text, maximumBytes: maximumBytes)
  }

  /// An `as`: at most `limit` strings are read, the rest skipped.
  func readStrings(limit: Int = .max) -> [String]? {
    guard enter(UInt8(ascii: "a"), "s") else { return nil }
    var strings: [String] = []
    while strings.count < limit, let string = readString() { strings.append(string) }
    while sd_bus_message_skip(message, "s") > 0 {}
    exit()
    return strings
  }

  /// An `x` MPRIS position (`Position`, `Seeked`) in microseconds, bounded as
  /// ``PlayerValueBounds/position(microseconds:)`` says: `nil` when missing or negative.
  func readPosition() -> Int64? {
    var value: Int64 = 0
    guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "x")), &value) > 0 else {
      return nil
    }
    return PlayerValueBounds.position(microseconds: value)
  }

  /// A number of any integer or double type, as a `Double`.
  func readNumber(type: UInt8) -> Double? {
    var storage: (Int64, Int64) = (0, 0)
    return withUnsafeMutableBytes(of: &storage) { raw -> Double? in
      guard sd_bus_message_read_basic(message, CChar(bitPattern: type), raw.baseAddress) > 0
      else { return nil }
      switch type {
      case UInt8(ascii: "x"): return Double(raw.load(as: Int64.self))
      case UInt8(ascii: "t"): return Double(raw.load(as: UInt64.self))
      case UInt8(ascii: "i"): return Double(raw.load(as: Int32.self))
      case UInt8(ascii: "u"): return Double(raw.load(as: UInt32.self))
      case UInt8(ascii: "d"): return raw.load(as: Double.self)
      default: return nil
      }
    }
  }

  @discardableResult
  func enter(_ type: UInt8, _ contents: String) -> Bool {
    sd_bus_message_enter_container(message, CChar(bitPattern: type), contents) > 0
  }

  func exit() { sd_bus_message_exit_container(message) }

  func skip(_ types: String) { sd_bus_message_skip(message, types) }

  /// Walks an `a{sv}`: `body` gets each key and the message positioned at the variant's
  /// value (entered; `type` is its signature); it returns false for a value it did not read,
  /// which is then skipped.
  func forEachProperty(_ body: (_ key: String, _ type: String) -> Bool) {
    guard enter(UInt8(ascii: "a"), "{sv}") else { return }
    while enter(UInt8(ascii: "e"), "sv") {
      if let key = readString(), let (kind, contents) = peek(), kind == UInt8(ascii: "v"),
        let contents, enter(UInt8(ascii: "v"), contents)
      {
        if !body(key, contents) { skip(contents) }
        exit()
      }
      exit()
    }
    exit()
  }

  /// An `a{sv}` of `org.mpris.MediaPlayer2.Player` properties (a `GetAll` reply, a
  /// `PropertiesChanged` signal), at the message's position: what pulsebar reads of it, each
  /// value checked; keys and types it does not read are skipped.
  func readPlayerProperties() -> PlayerProperties {
    var properties = PlayerProperties()
    forEachProperty { key, type in
      switch (key, type) {
      case ("PlaybackStatus", "s"):
        // Anything but Playing or Paused counts as Stopped.
        properties.status = readString().map { PlayerStatus(rawValue: $0) ?? .stopped }
      case ("Metadata", "a{sv}"):
        properties.metadata = readMetadata()
      case ("Position", "x"):
        properties.position = readPosition()
      case ("Rate", "d"):
        properties.rate = readNumber(type: UInt8(ascii: "d")).map(PlayerValueBounds.rate)
      case ("Volume", "d"):
        properties.volume = readNumber(type: UInt8(ascii: "d")).flatMap(PlayerValueBounds.volume)
      default:
        return false
      }
      return true
    }
    return properties
  }

  /// An MPRIS `Metadata` value (`a{sv}`), at the message's position.
  func readMetadata() -> Metadata {
    var metadata = Metadata()
    forEachProperty { key, type in
      switch (key, type) {
      case ("xesam:title", "s"): metadata.title = readString().nonEmpty
      case ("xesam:album", "s"): metadata.album = readString().nonEmpty
      case ("xesam:artist", "as"):
        let artists = readStrings(limit: Self.maximumArtists)?.filter { !$0.isEmpty }
        metadata.artist = artists.map { UntrustedText.capped($0.joined(separator: ", ")) }.nonEmpty
      case ("xesam:artist", "s"): metadata.artist = readString().nonEmpty  // not the spec; seen
      case ("xesam:url", "s"):
        metadata.url = readString(maximumBytes: Self.maximumURLBytes + 1).nonEmpty.flatMap {
          $0.utf8.count > Self.maximumURLBytes ? nil : $0
        }
      case ("mpris:artUrl", "s"):
        metadata.artURL = readArtURL()
      case ("xesam:asText", "s"):
        metadata.text = readString(maximumBytes: LyricFinder.maximumBytes).nonEmpty
      case ("mpris:length", "x"), ("mpris:length", "t"), ("mpris:length", "i"),
        ("mpris:length", "u"):
        metadata.length = readNumber(type: type.utf8.first!).flatMap {
          PlayerValueBounds.length(microseconds: $0)
        }
      default: return false
      }
      return true
    }
    return metadata
  }
}

extension BusMessage {
  /// `mpris:artUrl`, left out (never cut) past ``ArtSource/maximumDataURIBytes`` for a `data:`
  /// URI and ``maximumURLBytes`` for any other.
  fileprivate func readArtURL() -> String? {
    guard let url = readString(maximumBytes: ArtSource.maximumDataURIBytes + 1).nonEmpty else {
      return nil
    }
    let limit =
      url.utf8.prefix(5).elementsEqual("data:".utf8)
      ? ArtSource.maximumDataURIBytes : Self.maximumURLBytes
    return url.utf8.count > limit ? nil : url
  }
}

extension String? {
  /// `nil` for an empty string too: a player that sends `""` has no title.
  fileprivate var nonEmpty: String? { self?.isEmpty == false ? self : nil }
}

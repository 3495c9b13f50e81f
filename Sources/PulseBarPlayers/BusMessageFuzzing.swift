internal import CSystemd
import Glibc
import PulseBarCore
import PulseBarSystem

/// Arbitrary bytes made into a `PropertiesChanged` message and read as the players' thread
/// reads one: the libFuzzer harness `fuzz-bus-message` and its corpus test drive the bus
/// boundary (``BusMessage``) with it.
///
/// The bytes are a program (``build(_:into:)``) that appends `a{sv}` entries of any key with
/// values of every type MPRIS players send and of the wrong ones: strings up to 64 KB, artist
/// lists up to 100,000 names, nested dictionaries, lengths of every integer and float type,
/// variants nested in variants. The message is built on a real sd-bus connection (one end of
/// a socket pair, started anonymously: sd-bus makes messages only on a running bus), sealed,
/// and read back front to back.
package enum BusMessageFuzzing {
  /// What reading one input found: the properties, and the longest string kept.
  package struct Outcome: Sendable {
    package var status: PlayerStatus?
    package var title: String?
    package var artist: String?
    package var album: String?
    package var length: Double?
    package var position: Int64?
    package var rate: Double?

    init(_ properties: PlayerProperties) {
      status = properties.status
      title = properties.metadata?.title
      artist = properties.metadata?.artist
      album = properties.metadata?.album
      length = properties.metadata?.length
      position = properties.position
      rate = properties.rate
    }
  }

  /// The running bus messages are made on, as its address (0 where sd-bus would not start
  /// one), used under the lock: sd-bus objects belong to one thread at a time. Both ends are
  /// kept for the process's life (the server end was dropped, and LeakSanitizer stopped
  /// `make fuzz` at once on it: a direct leak "in the initial corpus").
  private static let bus = Lock<(client: Int, server: Int)>(makeBus())

  private static func makeBus() -> (client: Int, server: Int) {
    guard let (client, server) = startedPair() else { return (0, 0) }
    return (Int(bitPattern: client), Int(bitPattern: server))
  }

  private static func startedPair() -> (OpaquePointer, OpaquePointer)? {
    var pair: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else { return nil }
    var client: OpaquePointer?
    var server: OpaquePointer?
    var id = sd_id128_t()
    guard sd_bus_new(&client) >= 0, sd_bus_new(&server) >= 0, let client, let server,
      sd_id128_randomize(&id) >= 0
    else { return nil }
    sd_bus_set_fd(client, pair[0], pair[0])
    sd_bus_set_fd(server, pair[1], pair[1])
    sd_bus_set_anonymous(client, 1)
    sd_bus_set_anonymous(server, 1)
    sd_bus_set_server(server, 1, id)
    guard sd_bus_start(client) >= 0, sd_bus_start(server) >= 0 else { return nil }
    // The authentication handshake, both ends in this thread.
    for _ in 0..<64 {
      _ = sd_bus_process(client, nil)
      _ = sd_bus_process(server, nil)
    }
    return (client, server)
  }

  /// Builds a message from `input` and reads it; `nil` when sd-bus refused to build it (an
  /// invalid key or string, which a bus would refuse too).
  package static func read(_ input: UnsafeRawBufferPointer) -> Outcome? {
    properties(input).map(Outcome.init)
  }

  /// The properties read from the message `input` builds (what ``read(_:)`` reports), for
  /// the whole player path (``PlayerPathFuzzing``).
  static func properties(_ input: UnsafeRawBufferPointer) -> PlayerProperties? {
    bus.withLock { pair -> PlayerProperties? in
      guard let client = OpaquePointer(bitPattern: pair.client) else { return nil }
      return properties(input, on: client)
    }
  }

  private static func properties(_ input: UnsafeRawBufferPointer, on bus: OpaquePointer)
    -> PlayerProperties?
  {
    var raw: OpaquePointer?
    guard
      sd_bus_message_new_signal(
        bus, &raw, "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties",
        "PropertiesChanged") >= 0, let raw
    else { return nil }
    let message = BusMessage(adopting: raw)
    var program = Program(bytes: input)
    guard append(string: PlayerCore.playerInterface, to: raw),
      sd_bus_message_open_container(raw, CChar(UInt8(ascii: "a")), "{sv}") >= 0,
      program.build(into: raw, depth: 0),
      sd_bus_message_close_container(raw) >= 0,
      sd_bus_message_open_container(raw, CChar(UInt8(ascii: "a")), "s") >= 0,
      sd_bus_message_close_container(raw) >= 0,
      sd_bus_message_seal(raw, 1, 0) >= 0,
      sd_bus_message_rewind(raw, 1) >= 0
    else { return nil }
    guard message.readString() == PlayerCore.playerInterface else { return nil }
    return message.readPlayerProperties()
  }

  fileprivate static func append(string: String, to message: OpaquePointer) -> Bool {
    string.withCString {
      sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) >= 0
    }
  }
}

/// The input read as a program of `a{sv}` entries.
private struct Program {
  let bytes: UnsafeRawBufferPointer
  var offset = 0

  init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  mutating func next() -> UInt8? {
    guard offset < bytes.count else { return nil }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func number() -> UInt64 {
    var value: UInt64 = 0
    for _ in 0..<8 { value = value << 8 | UInt64(next() ?? 0) }
    return value
  }

  /// A string: a length (one byte, scaled by a second one for long strings) and that many
  /// bytes, repeated from the input; control bytes and invalid UTF-8 included (sd-bus
  /// refuses invalid UTF-8 and NUL, as a bus does).
  mutating func text() -> String {
    let length = Int(next() ?? 0) * (1 << Int((next() ?? 0) % 9))
    // The input's bytes from here (NUL made a space), then `x` up to the length.
    var text = [UInt8](repeating: UInt8(ascii: "x"), count: length)
    let available = min(length, bytes.count - offset)
    for index in 0..<available {
      let byte = bytes[offset + index]
      text[index] = byte == 0 ? UInt8(ascii: " ") : byte
    }
    offset = min(bytes.count, offset + min(length, 64))
    return String(decoding: text, as: UTF8.self)
  }

  static let keys = [
    "PlaybackStatus", "Metadata", "Position", "Rate", "xesam:title", "xesam:artist",
    "xesam:album", "mpris:length", "mpris:trackid", "Volume",
  ]

  /// Appends entries until the input runs out (or a nested dictionary ends).
  mutating func build(into message: OpaquePointer, depth: Int) -> Bool {
    while let operation = next() {
      if operation == 0xFF && depth > 0 { return true }  // the end of a nested dictionary
      let key = operation & 0x80 != 0 ? text() : Self.keys[Int(operation) % Self.keys.count]
      guard sd_bus_message_open_container(message, CChar(UInt8(ascii: "e")), "sv") >= 0,
        BusMessageFuzzing.append(string: key, to: message),
        variant(into: message, depth: depth),
        sd_bus_message_close_container(message) >= 0
      else { return false }
    }
    return true
  }

  /// One variant of a type the next byte picks.
  mutating func variant(into message: OpaquePointer, depth: Int) -> Bool {
    let kind = (next() ?? 0) % 10
    func open(_ contents: String) -> Bool {
      sd_bus_message_open_container(message, CChar(UInt8(ascii: "v")), contents) >= 0
    }
    func basic<T: BitwiseCopyable>(_ type: Character, _ value: T) -> Bool {
      withUnsafeBytes(of: value) { bytes in
        sd_bus_message_append_basic(
          message, CChar(UInt8(ascii: type.unicodeScalars.first!)), bytes.baseAddress) >= 0
      }
    }
    var appended: Bool
    switch kind {
    case 0:
      appended = open("s") && BusMessageFuzzing.append(string: text(), to: message)
    case 1:
      appended = open("x") && basic("x", Int64(bitPattern: number()))
    case 2:
      appended = open("t") && basic("t", number())
    case 3:
      appended = open("d") && basic("d", Double(bitPattern: number()))
    case 4:
      appended = open("i") && basic("i", Int32(truncatingIfNeeded: number()))
    case 5:
      // Many strings: up to 100,000 names, at most 64 KB of them (far past the boundary's 16
      // names of 1,000 bytes, and cheap enough for millions of runs: a 1 MB name 100,000
      // times made each run build messages of gigabytes).
      let requested = min(100_000, Int(next() ?? 0) * Int(next() ?? 0) * 2)
      appended = open("as") && sd_bus_message_open_container(message, 0x61, "s") >= 0
      let name = text()
      let count = min(requested, (1 << 16) / max(1, name.utf8.count))
      for _ in 0..<count where appended {
        appended = BusMessageFuzzing.append(string: name, to: message)
      }
      appended = appended && sd_bus_message_close_container(message) >= 0
    case 6 where depth < 4:
      appended =
        open("a{sv}") && sd_bus_message_open_container(message, 0x61, "{sv}") >= 0
        && build(into: message, depth: depth + 1)
        && sd_bus_message_close_container(message) >= 0
    case 7 where depth < 4:
      // A variant in a variant.
      appended = open("v") && variant(into: message, depth: depth + 1)
    case 8:
      appended = open("b") && basic("b", Int32(next() ?? 0) & 1)
    default:
      appended = open("u") && basic("u", UInt32(truncatingIfNeeded: number()))
    }
    return appended && sd_bus_message_close_container(message) >= 0
  }
}

import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarSystem
import PulseBarTestSupport
import Testing

@testable import PulseBarDaemon

/// A `pulsebar run` child serving a socket, for the daemon-level tests.
final class TestDaemon {
  /// The built CLI (``Binary/path``).
  static var binary: String { Binary.path }

  let process: ChildProcess
  let socketPath: String

  /// Starts `pulsebar run --input file:<audio> --socket <path> --no-stdout <extra>` (or with
  /// `launcher` in front, e.g. systemd-socket-activate) and waits for the socket file.
  init(
    audio: String, socketPath: String, extra: [String] = [], environment: [String: String] = [:],
    socketOption: Bool = true, launcher: [String] = []
  ) throws {
    self.socketPath = socketPath
    try #require(access(Self.binary, X_OK) == 0, "build pulsebar first: \(Self.binary)")
    var arguments = ["run", "--input", "file:" + audio, "--no-stdout"]
    if socketOption { arguments += ["--socket", socketPath] }
    arguments += extra
    if launcher.isEmpty {
      process = try ChildProcess(Self.binary, arguments, environment: environment)
    } else {
      process = try ChildProcess(
        launcher[0], Array(launcher.dropFirst()) + [Self.binary] + arguments,
        environment: environment)
    }
    let ready = eventually(timeout: 10) { access(socketPath, F_OK) == 0 }
    try #require(ready, "no socket at \(socketPath); stderr: \(process.standardError)")
  }

  /// SIGTERM, then the exit status.
  func terminate() throws -> Int32 {
    process.send(SIGTERM)
    return try process.waitForExit(timeout: 10)
  }

  /// Resident memory in kB (`VmRSS` in /proc/PID/status).
  var residentKilobytes: Int {
    guard let status = try? readTextFile("/proc/\(process.pid)/status") else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
    }
    return 0
  }
}

/// Runs `body` with a daemon on `<directory>/s.sock` playing fresh test audio; afterwards
/// expects SIGTERM to end it with status 0.
func withDaemon(_ body: (TestDaemon, _ directory: String, _ audio: String) throws -> Void) throws {
  try withTemporaryDirectory { directory in
    let audio = try makeTestAudio(in: directory)
    let daemon = try TestDaemon(audio: audio, socketPath: directory + "/s.sock")
    try body(daemon, directory, audio)
    #expect(try daemon.terminate() == 0)
  }
}

/// Writes test audio with sox into `directory`: `seconds` of pink noise under a slow sweep,
/// so every frame's bars differ. Returns its path.
func makeTestAudio(in directory: String, seconds: Int = 60) throws -> String {
  let path = directory + "/noise.wav"
  let sox = try ChildProcess(
    "sox",
    [
      "-n", "-r", "44100", "-c", "2", "-b", "16", path, "synth", "\(seconds)", "pinknoise", "sine",
      "100-5000", "vol", "0.5",
    ])
  try #require(try sox.waitForExit(timeout: 60) == 0, "sox: \(sox.standardError)")
  return path
}

// MARK: - A small JSON reader (no Foundation), enough to parse what bars parse

/// A parsed JSON value.
indirect enum JSONValue: Equatable {
  case object([String: JSONValue])
  case array([JSONValue])
  case string(String)
  case number(Double)
  case bool(Bool)
  case null

  subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  var array: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  var number: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// Parses one complete JSON text; `nil` when it is not valid JSON.
  static func parse(_ text: String) -> JSONValue? {
    var reader = JSONReader(bytes: Array(text.utf8))
    guard let value = reader.value() else { return nil }
    reader.skipSpace()
    return reader.index == reader.bytes.count ? value : nil
  }
}

/// A recursive-descent reader over UTF-8 bytes; `index` is where it stands.
private struct JSONReader {
  let bytes: [UInt8]
  var index = 0

  mutating func skipSpace() {
    while index < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[index]) { index += 1 }
  }

  mutating func value() -> JSONValue? {
    skipSpace()
    guard index < bytes.count else { return nil }
    switch bytes[index] {
    case UInt8(ascii: "{"): return object()
    case UInt8(ascii: "["): return array()
    case UInt8(ascii: "\""): return string().map { .string($0) }
    case UInt8(ascii: "t"): return literal("true", .bool(true))
    case UInt8(ascii: "f"): return literal("false", .bool(false))
    case UInt8(ascii: "n"): return literal("null", .null)
    default: return number()
    }
  }

  private mutating func literal(_ word: String, _ value: JSONValue) -> JSONValue? {
    let utf8 = Array(word.utf8)
    guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8
    else { return nil }
    index += utf8.count
    return value
  }

  private mutating func number() -> JSONValue? {
    let start = index
    while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
    return Double(String(decoding: bytes[start..<index], as: UTF8.self)).map { .number($0) }
  }

  private mutating func string() -> String? {
    index += 1
    var scalars: [UInt8] = []
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""): return String(decoding: scalars, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard index < bytes.count else { return nil }
        let escaped = bytes[index]
        index += 1
        switch escaped {
        case UInt8(ascii: "n"): scalars.append(0x0a)
        case UInt8(ascii: "t"): scalars.append(0x09)
        case UInt8(ascii: "r"): scalars.append(0x0d)
        case UInt8(ascii: "b"): scalars.append(0x08)
        case UInt8(ascii: "f"): scalars.append(0x0c)
        case UInt8(ascii: "u"):
          guard bytes.count - index >= 4,
            let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
            let scalar = Unicode.Scalar(code)
          else { return nil }
          index += 4
          scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
        default: scalars.append(escaped)
        }
      default:
        guard byte >= 0x20 else { return nil }
        scalars.append(byte)
      }
    }
    return nil
  }

  private mutating func array() -> JSONValue? {
    index += 1
    var elements: [JSONValue] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      guard let element = value() else { return nil }
      elements.append(element)
      skipSpace()
      guard index < bytes.count else { return nil }
      index += 1
      if bytes[index - 1] == UInt8(ascii: "]") { return .array(elements) }
      guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
    }
  }

  private mutating func object() -> JSONValue? {
    index += 1
    var members: [String: JSONValue] = [:]
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else {
        return nil
      }
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
      index += 1
      guard let member = value() else { return nil }
      members[key] = member
      skipSpace()
      guard index < bytes.count else { return nil }
      index += 1
      if bytes[index - 1] == UInt8(ascii: "}") { return .object(members) }
      guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
    }
  }
}

/// A datagram socket bound where a test points `NOTIFY_SOCKET`, collecting sd_notify messages.
final class NotifyListener {
  let path: String
  private let descriptor: FileDescriptor
  private(set) var messages: [String] = []

  /// Binds at `path` (`@name` for an abstract socket).
  init(path: String) throws {
    self.path = path
    descriptor = try UnixSocket.bindDatagram(path: path)
  }

  deinit {
    descriptor.closeQuietly()
    if !path.hasPrefix("@") { unlink(path) }
  }

  /// Waits until a message containing `line` arrives (or was seen); true when it did.
  func waitFor(_ line: String, timeout: Double = 5) -> Bool {
    let deadline = monotonicSeconds() + timeout
    while true {
      if messages.contains(where: { $0.split(separator: "\n").contains(Substring(line)) }) {
        return true
      }
      let remaining = deadline - monotonicSeconds()
      if remaining <= 0 { return false }
      var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = recv(descriptor.rawValue, &buffer, buffer.count, 0)
      if count > 0 { messages.append(String(decoding: buffer[..<count], as: UTF8.self)) }
    }
  }
}

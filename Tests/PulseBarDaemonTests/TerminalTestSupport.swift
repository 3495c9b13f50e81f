import Glibc
import PulseBarCore
import Testing

@testable import PulseBarDaemon

/// A non-blocking pipe for the terminal view to write into (or read keys from).
final class TerminalPipe {
  let read: Int32
  private(set) var write: Int32

  init() throws {
    var descriptors: [Int32] = [0, 0]
    try #require(pipe(&descriptors) == 0)
    read = descriptors[0]
    write = descriptors[1]
    for descriptor in descriptors {
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }
  }

  deinit {
    close(read)
    if write >= 0 { close(write) }
  }

  /// Closes the write end: the reader sees the end of input.
  func closeWriteEnd() {
    close(write)
    write = -1
  }

  /// Everything written so far and not yet read.
  func drain() -> [UInt8] {
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      result += chunk[0..<count]
    }
    return result
  }
}

/// A fresh directory under /tmp, removed with its files at deinit.
final class TemporaryDirectory {
  let path: String

  init() throws {
    var template = Array("/tmp/pulsebar-test-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    try #require(made != nil)
    path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  deinit {
    _ = shell("rm -rf '\(path)'")
  }

  /// A 5 s stereo 440 Hz sine at 44.1 kHz, made with sox.
  func makeSine() throws -> String {
    let wav = "\(path)/sine.wav"
    try #require(shell("sox -n -r 44100 -c 2 \(wav) synth 5 sine 440") == 0, "sox failed")
    return wav
  }
}

/// The built `pulsebar` executable (``Binary/path``), which must exist.
func pulsebarBinary() throws -> String {
  try #require(access(Binary.path, X_OK) == 0, "\(Binary.path) is missing: run `swift build` first")
  return Binary.path
}

/// Runs `command` with /bin/sh; returns its exit status (or 128 + signal).
@discardableResult
func shell(_ command: String) -> Int32 {
  let status = system(command)
  if status & 0x7F != 0 { return 128 + (status & 0x7F) }
  return (status >> 8) & 0xFF
}

/// The contents of a file as UTF-8 text; empty when it cannot be read.
func readText(_ path: String) -> String {
  let descriptor = open(path, O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else { return "" }
  defer { close(descriptor) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count <= 0 { break }
    bytes += chunk[0..<count]
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// Writes `text` to a new file at `path`.
func writeText(_ text: String, to path: String) {
  let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  guard descriptor >= 0 else { return }
  defer { close(descriptor) }
  var text = text
  _ = text.withUTF8 { write(descriptor, $0.baseAddress, $0.count) }
}

extension String {
  /// Without leading and trailing spaces.
  func trimmingSpaces() -> String {
    let scalars = unicodeScalars.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
    return String(String.UnicodeScalarView(scalars))
  }
}

extension TerminalView {
  /// The composed text of one row of the grid.
  func text(ofRow row: Int) -> String {
    var line = ""
    for column in 0..<canvas.columns {
      line.unicodeScalars.append(Unicode.Scalar(canvas.scalar(row: row, column: column))!)
    }
    return line
  }
}

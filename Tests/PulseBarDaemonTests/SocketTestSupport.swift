import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarSystem

@testable import PulseBarDaemon

/// A blocking Unix-socket client for tests: connects, sends, reads lines with deadlines.
final class SocketTestClient {
  let descriptor: FileDescriptor
  private var pending: [UInt8] = []
  private(set) var closedByPeer = false

  init(path: String, send line: String? = nil) throws {
    descriptor = try UnixSocket.connect(path: path)
    if let line { send(line) }
  }

  /// Sends `text` without blocking for long and without SIGPIPE (the test runner does not
  /// ignore it, and a refused client's peer may already be gone); what does not fit is dropped.
  func send(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      _ = Glibc.send(descriptor.rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
    }
  }

  deinit { descriptor.closeQuietly() }

  /// The next line (without `\n`), or `nil` on timeout or end of file.
  func readLine(timeout: Double = 3) -> String? {
    let deadline = monotonicSeconds() + timeout
    while true {
      if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        return line
      }
      let remaining = deadline - monotonicSeconds()
      guard remaining > 0, !closedByPeer, waitReadable(remaining) else { return nil }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let count = chunk.withUnsafeMutableBytes { (try? descriptor.read(into: $0)) ?? 0 }
      if count <= 0 {
        closedByPeer = true
      } else {
        pending.append(contentsOf: chunk[..<count])
      }
    }
  }

  /// Lines until end of file or `timeout`; true when the peer closed.
  func readUntilClosed(timeout: Double = 3) -> (lines: [String], closed: Bool) {
    var lines: [String] = []
    let deadline = monotonicSeconds() + timeout
    while let line = readLine(timeout: max(0, deadline - monotonicSeconds())) { lines.append(line) }
    return (lines, closedByPeer)
  }

  private func waitReadable(_ seconds: Double) -> Bool {
    var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, Int32(seconds * 1000) + 1) > 0
  }
}

/// Monotonic seconds.
func monotonicSeconds() -> Double { Double(monotonicNanoseconds()) / 1e9 }

/// A fresh private directory under /tmp, removed by `body`'s end.
func withTemporaryDirectory<R>(_ body: (String) throws -> R) rethrows -> R {
  var template = Array("/tmp/pulsebar-test-XXXXXX".utf8CString)
  let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
  defer { removeTree(path) }
  return try body(path)
}

/// `rm -rf` of a test directory.
func removeTree(_ path: String) {
  if let directory = opendir(path) {
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
      }
      guard name != "." && name != ".." else { continue }
      if entry.pointee.d_type == UInt8(DT_DIR) {
        removeTree(path + "/" + name)
      } else {
        unlink(path + "/" + name)
      }
    }
    closedir(directory)
  }
  rmdir(path)
}

/// Sleeps for `seconds`.
func pause(_ seconds: Double) { usleep(UInt32(seconds * 1_000_000)) }

/// Polls `condition` every 10 ms for up to `timeout` seconds.
func eventually(timeout: Double = 3, _ condition: () -> Bool) -> Bool {
  let deadline = monotonicSeconds() + timeout
  while monotonicSeconds() < deadline {
    if condition() { return true }
    pause(0.01)
  }
  return condition()
}

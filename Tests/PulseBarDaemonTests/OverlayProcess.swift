import Glibc
import PulseBarTestSupport
import Testing

/// A `pulsebar overlay` child on a free loopback port, and raw TCP exchanges with it: the
/// overlay's HTTP tests speak bytes on real sockets, so what they send is exactly what a
/// hostile client could.
final class OverlayProcess {
  let process: ChildProcess
  let port: UInt16

  /// Starts `pulsebar overlay --port <port, else a free one> --socket <socketPath>` and waits
  /// until it serves.
  init(socketPath: String, port: UInt16? = nil, extra: [String] = []) throws {
    try #require(access(Binary.path, X_OK) == 0, "build pulsebar first: \(Binary.path)")
    self.port = port ?? Self.freePort()
    process = try ChildProcess(
      Binary.path, ["overlay", "--port", "\(self.port)", "--socket", socketPath] + extra)
    let port = self.port
    let ready = eventually(timeout: 10) { Self.connect(port: port).map { close($0) } != nil }
    try #require(ready, "the overlay does not serve; stderr: \(process.standardError)")
  }

  /// A test that stops early (a failed `#require`, a throw) leaves no overlay running.
  deinit {
    if process.isRunning {
      process.send(SIGKILL)
      _ = try? process.waitForExit(timeout: 5)
    }
  }

  /// SIGTERM, then the exit status.
  func terminate() throws -> Int32 {
    process.send(SIGTERM)
    return try process.waitForExit(timeout: 10)
  }

  /// Sends `request` on a new connection and reads until the overlay closes it or `timeout`.
  func exchange(_ request: String, timeout: Double = 5) -> String {
    guard let socket = Self.connect(port: port) else { return "" }
    defer { close(socket) }
    _ = request.utf8CString.withUnsafeBufferPointer {
      send(socket, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL))
    }
    return Self.read(socket, timeout: timeout)
  }

  /// A GET of `path` with this overlay's Host.
  func get(_ path: String, timeout: Double = 5) -> String {
    exchange("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", timeout: timeout)
  }

  /// What `socket` sends within `timeout` seconds (or until it closes).
  static func read(_ socket: Int32, timeout: Double, until stop: (String) -> Bool = { _ in false })
    -> String
  {
    var bytes: [UInt8] = []
    let deadline = ChildProcess.now() + timeout
    var buffer = [UInt8](repeating: 0, count: 65536)
    while ChildProcess.now() < deadline {
      var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      let wait = Int32(max(1, (deadline - ChildProcess.now()) * 1000))
      guard poll(&entry, 1, min(wait, 100)) >= 0 else { break }
      guard entry.revents != 0 else { continue }
      let count = recv(socket, &buffer, buffer.count, 0)
      guard count > 0 else { break }
      bytes += buffer[..<count]
      if stop(String(decoding: bytes, as: UTF8.self)) { break }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A TCP connection to 127.0.0.1:`port`, or `nil`.
  static func connect(port: UInt16) -> Int32? {
    let socket = Glibc.socket(
      AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { return nil }
    var address = loopback(port: port)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      close(socket)
      return nil
    }
    return socket
  }

  /// A port nobody listens on now (the kernel's pick for a bound, closed socket).
  static func freePort() -> UInt16 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        _ = bind(socket, $0, length)
        _ = getsockname(socket, $0, &length)
      }
    }
    return UInt16(bigEndian: address.sin_port)
  }

  private static func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    return address
  }

  /// `VmRSS` in kB and the thread count, from /proc.
  var residentKilobytesAndThreads: (kilobytes: Int, threads: Int) {
    guard let status = try? readTextFile("/proc/\(process.pid)/status") else { return (0, 0) }
    var result = (kilobytes: 0, threads: 0)
    for line in status.split(separator: "\n") {
      let fields = line.split { $0 == " " || $0 == "\t" }
      guard fields.count > 1, let value = Int(fields[1]) else { continue }
      if fields[0] == "VmRSS:" { result.kilobytes = value }
      if fields[0] == "Threads:" { result.threads = value }
    }
    return result
  }
}

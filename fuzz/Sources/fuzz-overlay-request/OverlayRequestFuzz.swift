import Glibc
import PulseBarDaemon

/// libFuzzer entry for what `pulsebar overlay` reads from outside. The first byte picks how:
///
/// - even: the rest is the parts libmicrohttpd hands over — method, path, `Host`, `fps` and
///   `bars`, separated by byte 0x01 (a missing part is absent) — for ``OverlayRequest``'s
///   decision. Invariants: the page only for GET or HEAD of `/` with an accepted Host; events
///   only for `/events` with `fps` 1…240 and `bars` 1…512 (or absent); any Host the overlay
///   does not accept refused first; an accepted Host is a loopback name (or the `--listen`
///   address) with the port; every refusal's status matches its kind and its line is one line.
/// - odd: the rest is sent as it is, over TCP, to a real overlay (libmicrohttpd and its
///   callbacks, started once in this process on a free loopback port), then the write side is
///   shut: before the header deadline (and a second) the overlay answers, with an HTTP status
///   line first, or closes; it keeps serving.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOverlayRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = UnsafeBufferPointer(start: data, count: size)
  guard let mode = input.first else { return 0 }
  if mode & 1 == 0 {
    checkRoute(input.dropFirst())
  } else {
    checkWire(Array(input.dropFirst()))
  }
  return 0
}

private let hosts = OverlayHosts(port: 7455, address: "192.0.2.7")

private func checkRoute(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
  let parts = bytes.split(separator: 1, maxSplits: 4, omittingEmptySubsequences: false)
    .map { String(decoding: $0, as: UTF8.self) }
  let part = { (index: Int) in index < parts.count ? parts[index] : nil }
  let request = OverlayRequest(
    method: part(0) ?? "GET", path: part(1) ?? "/", host: part(2), fps: part(3), bars: part(4))
  let route = request.route(hosts: hosts)
  let accepted = request.host.map(hosts.accepts) ?? false
  if accepted, let host = request.host {
    let names = ["127.0.0.1", "localhost", "192.0.2.7"]
    let lowered = host.lowercased()
    guard names.contains(where: { lowered == $0 + ":7455" }) else {
      fatalError("accepted Host \(host.debugDescription)")
    }
  }
  switch route {
  case .page:
    guard accepted, ["GET", "HEAD"].contains(request.method), request.path == "/" else {
      fatalError("the page for \(request)")
    }
  case .events(let fps, let bars):
    guard accepted, ["GET", "HEAD"].contains(request.method), request.path == "/events",
      fps.map(OverlayRequest.fpsRange.contains) ?? (request.fps == nil),
      bars.map(OverlayRequest.barsRange.contains) ?? (request.bars == nil)
    else { fatalError("events for \(request)") }
  case .refused(let refusal):
    guard accepted || refusal == .host else { fatalError("\(refusal) before the Host check") }
    let statuses: [OverlayRefusal: UInt32] = [
      .host: 403, .method: 405, .notFound: 404, .query: 400, .busy: 503,
    ]
    let message = "\(refusal.message)"
    guard statuses[refusal] == refusal.status, message.last == "\n",
      !message.dropLast().contains("\n")
    else { fatalError("\(refusal): \(refusal.status) \(message.debugDescription)") }
  }
}

/// The overlay this process serves for the wire mode, started at the first such input.
private nonisolated(unsafe) var overlay: (server: OverlayServer, port: UInt16)?

private func checkWire(_ bytes: [UInt8]) {
  if overlay == nil {
    for port in UInt16(47_455)...UInt16(47_555) {
      let service = OverlayService(
        hosts: OverlayHosts(port: port, address: "127.0.0.1"), socketPath: "/nonexistent.sock")
      if let server = try? OverlayServer(service: service, address: "127.0.0.1", port: port) {
        overlay = (server, port)
        break
      }
    }
  }
  guard let overlay else { fatalError("no port for the overlay") }
  let socket = connectLoopback(port: overlay.port)
  guard socket >= 0 else { fatalError("the overlay stopped serving: errno \(errno)") }
  defer { close(socket) }
  _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  // The end of the input is the end of the request: libmicrohttpd answers or closes at once.
  shutdown(socket, Int32(SHUT_WR))
  var answer = [UInt8](repeating: 0, count: 16)
  var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
  // Under the fuzzer's load the overlay may take a moment; past the header deadline (and a
  // second for its watchdog) a connection is held, which it must never be.
  let limit = Int32(OverlayServer.headerSeconds + 2) * 1000
  guard poll(&entry, 1, limit) > 0 else {
    fatalError("no answer and no close in time; \(threadsAndDescriptors())")
  }
  let count = recv(socket, &answer, answer.count, 0)
  guard count > 0 else { return }
  guard answer[..<count].starts(with: "HTTP/1.".utf8) else {
    fatalError("not a status line: \(answer[..<count])")
  }
}

private func connectLoopback(port: UInt16) -> Int32 {
  let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = port.bigEndian
  address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
  let result = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  if result != 0 {
    close(socket)
    return -1
  }
  return socket
}

/// This process's thread and descriptor counts, for a report.
private func threadsAndDescriptors() -> String {
  var threads = 0
  if let file = fopen("/proc/self/status", "r") {
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, 256, file) != nil {
      let text = String(decoding: line.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
      if text.hasPrefix("Threads:") { threads = Int(text.dropFirst(8).filter(\.isNumber)) ?? 0 }
    }
    fclose(file)
  }
  var descriptors = 0
  if let directory = opendir("/proc/self/fd") {
    while readdir(directory) != nil { descriptors += 1 }
    closedir(directory)
  }
  return "\(threads) threads, \(descriptors - 2) descriptors"
}

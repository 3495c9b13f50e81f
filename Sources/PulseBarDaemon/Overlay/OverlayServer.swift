import CAudioLibraries
import PulseBarSystem

/// libmicrohttpd serving ``OverlayService``: started on an address and port, stopped (every
/// connection's thread joined) by ``stop()``. The C side (http_server.c) hands each request's
/// parsed method, path, `Host` and arguments to the service, one thread per connection, at
/// most ``connectionLimit`` connections, each closed after ``timeoutSeconds`` of silence or
/// when its request's headers take over ``headerSeconds``.
package final class OverlayServer {
  /// Connections at once (page loads and event streams); more wait in the kernel's backlog.
  static let connectionLimit: UInt32 = 64
  /// A connection silent this long is closed.
  static let timeoutSeconds: UInt32 = 5
  /// A request's headers must all come within this (a slowloris, a byte now and then, holds
  /// its connection no longer; a page's request takes milliseconds).
  package static let headerSeconds: UInt32 = 10

  private let service: OverlayService
  private var server: OpaquePointer?

  /// Serves on `address`:`port`; throws the one-line reason it cannot.
  package init(service: OverlayService, address: String, port: UInt16) throws(OverlayError) {
    self.service = service
    let context = Unmanaged.passUnretained(service).toOpaque()
    var error = [CChar](repeating: 0, count: 256)
    let started = address.withCString { address in
      var options = pulsebar_http_options(
        context: context,
        answer: { context, request, answer in
          guard let context, let request, let answer else { return }
          let service = Unmanaged<OverlayService>.fromOpaque(context).takeUnretainedValue()
          service.answer(OverlayServer.request(request.pointee), into: &answer.pointee)
        },
        read_stream: { _, stream, buffer, size in
          guard let stream, let buffer else { return -1 }
          let relay = Unmanaged<OverlayStream>.fromOpaque(stream).takeUnretainedValue()
          return relay.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size))
        },
        end_stream: { context, stream in
          guard let context, let stream else { return }
          Unmanaged<OverlayService>.fromOpaque(context).takeUnretainedValue().endStream(stream)
        },
        address: address, port: port, connection_limit: Self.connectionLimit,
        timeout_seconds: Self.timeoutSeconds, header_seconds: Self.headerSeconds)
      return pulsebar_http_start(&options, &error, error.count)
    }
    guard let started else {
      throw OverlayError(String(decoding: error.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
    }
    server = started
  }

  deinit { stop() }

  /// Stops serving; waits for every connection's thread.
  func stop() {
    pulsebar_http_stop(server)
    server = nil
  }

  /// What libmicrohttpd parsed, as Swift strings (invalid UTF-8 repaired).
  private static func request(_ request: pulsebar_http_request) -> OverlayRequest {
    OverlayRequest(
      method: String(cString: request.method), path: String(cString: request.url),
      host: request.host.map { String(cString: $0) }, fps: request.fps.map { String(cString: $0) },
      bars: request.bars.map { String(cString: $0) })
  }
}

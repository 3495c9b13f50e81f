import CAudioLibraries
import Synchronization

/// What every connection of `pulsebar overlay` shares: the names it answers to, the daemon's
/// socket, the page, and the count of event streams (at most ``maximumStreams``, so the
/// daemon's clients and the overlay's threads stay bounded whatever a browser opens).
package final class OverlayService: Sendable {
  /// Event streams served at once; one more is refused (503) until one ends.
  static let maximumStreams = 16

  /// The page's Content-Security-Policy: nothing but itself. Its inline style and script by
  /// their hashes (`OverlayPageTests` checks them against overlay/index.html), its event
  /// stream from its own origin, no image, font, frame, form or base element from anywhere.
  static let contentSecurityPolicy: StaticString =
    "default-src 'none'; style-src 'sha256-q4hoXhB60W3rsjsD+HG5jXa9x0y78n14hsq+7SvidwM='; script-src 'sha256-Kj+lo8HLxC8K/zOr/4qyoc7IHrDAVFuhhN+2GTpIRK8='; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'"

  let hosts: OverlayHosts
  let socketPath: String
  private let streams = Atomic<Int>(0)

  package init(hosts: OverlayHosts, socketPath: String) {
    self.hosts = hosts
    self.socketPath = socketPath
  }

  /// Fills libmicrohttpd's `answer` for `request`.
  func answer(_ request: OverlayRequest, into answer: inout pulsebar_http_answer) {
    switch request.route(hosts: hosts) {
    case .refused(let refusal):
      refuse(refusal, into: &answer)
    case .page:
      var size = 0
      let page = pulsebar_overlay_page(&size)
      answer.status = 200
      answer.content_type = Self.text("text/html; charset=utf-8")
      answer.body = UnsafeRawPointer(page).map { $0.assumingMemoryBound(to: CChar.self) }
      answer.body_size = size
      answer.content_security_policy = Self.text(Self.contentSecurityPolicy)
    case .events(let fps, let bars):
      answer.status = 200
      answer.content_type = Self.text("text/event-stream")
      answer.body_size = 0
      guard request.method == "GET" else { return }
      guard reserveStream() else { return refuse(.busy, into: &answer) }
      let stream = OverlayStream(socketPath: socketPath, fps: fps, bars: bars)
      answer.stream = Unmanaged.passRetained(stream).toOpaque()
    }
  }

  /// One stream more, unless every one is taken.
  private func reserveStream() -> Bool {
    var current = streams.load(ordering: .relaxed)
    while current < Self.maximumStreams {
      let (exchanged, original) = streams.compareExchange(
        expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
      if exchanged { return true }
      current = original
    }
    return false
  }

  /// A stream's connection ended.
  func endStream(_ pointer: UnsafeMutableRawPointer) {
    Unmanaged<OverlayStream>.fromOpaque(pointer).release()
    streams.subtract(1, ordering: .acquiringAndReleasing)
  }

  private func refuse(_ refusal: OverlayRefusal, into answer: inout pulsebar_http_answer) {
    answer.status = refusal.status
    answer.content_type = Self.text("text/plain; charset=utf-8")
    answer.body = Self.text(refusal.message)
    answer.body_size = refusal.message.utf8CodeUnitCount
    answer.stream = nil
    answer.allow = refusal == .method ? Self.text("GET, HEAD") : nil
  }

  /// A static string as the C string libmicrohttpd reads (static text lives for good).
  private static func text(_ string: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self)
  }
}

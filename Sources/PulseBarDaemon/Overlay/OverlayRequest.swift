/// One HTTP request as libmicrohttpd parsed it (its method, path, `Host` header and the `fps`
/// and `bars` query arguments), and the overlay's one decision about it: ``route(hosts:)``.
///
/// Pure: no I/O, so the unit tests and the fuzz target (`fuzz-overlay-request`) reach every
/// answer. The order of the checks is the order of the threats: a `Host` that is not this
/// overlay's (DNS rebinding) is refused before anything else is read, then any method but GET
/// and HEAD (nothing from a web page may change anything), then paths and arguments.
package struct OverlayRequest: Equatable, Sendable {
  package var method: String
  /// The path, without the query (libmicrohttpd splits it off and decodes the arguments).
  package var path: String
  package var host: String?
  package var fps: String?
  package var bars: String?

  package init(
    method: String, path: String, host: String?, fps: String? = nil, bars: String? = nil
  ) {
    self.method = method
    self.path = path
    self.host = host
    self.fps = fps
    self.bars = bars
  }

  /// The `fps` an event stream may ask for: as a socket client's (``Subscription/fpsRange``;
  /// the daemon caps it at its own rate).
  package static let fpsRange = Subscription.fpsRange
  /// The bars an event stream may ask for: as `pulsebar listen --bars`.
  package static let barsRange = 1...512

  /// What the overlay answers.
  package func route(hosts: OverlayHosts) -> OverlayRoute {
    guard let host, hosts.accepts(host) else { return .refused(.host) }
    guard method == "GET" || method == "HEAD" else { return .refused(.method) }
    switch path {
    case "/":
      return .page
    case "/events":
      guard let fps = Self.number(fps, in: Self.fpsRange),
        let bars = Self.number(bars, in: Self.barsRange)
      else { return .refused(.query) }
      return .events(fps: fps, bars: bars)
    default:
      return .refused(.notFound)
    }
  }

  /// `nil` for no argument (`.some(nil)`), the number when it is in `range`, else `nil`.
  private static func number(_ text: String?, in range: ClosedRange<Int>) -> Int?? {
    guard let text else { return .some(nil) }
    guard text.utf8.count <= 4, let value = Int(text), range.contains(value) else { return nil }
    return .some(value)
  }
}

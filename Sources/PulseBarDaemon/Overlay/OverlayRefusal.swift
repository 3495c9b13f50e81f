/// Why the overlay refused a request: its HTTP status and the one line it answers (static
/// text: libmicrohttpd copies it after the answer callback returns).
package enum OverlayRefusal: Equatable, Sendable {
  /// The `Host` header is missing or not this overlay's (a DNS-rebinding page).
  case host
  /// Not GET or HEAD.
  case method
  /// A path other than `/` and `/events`.
  case notFound
  /// `fps` or `bars` out of range.
  case query
  /// Every event stream the overlay serves at once is taken.
  case busy

  package var status: UInt32 {
    switch self {
    case .host: 403
    case .method: 405
    case .notFound: 404
    case .query: 400
    case .busy: 503
    }
  }

  package var message: StaticString {
    switch self {
    case .host: "pulsebar overlay: the Host header must be this overlay's address and port\n"
    case .method: "pulsebar overlay: only GET and HEAD\n"
    case .notFound: "pulsebar overlay: not found (the page is /)\n"
    case .query: "pulsebar overlay: fps must be 1...240 and bars 1...512\n"
    case .busy: "pulsebar overlay: too many event streams\n"
    }
  }
}

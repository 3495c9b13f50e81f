/// What `pulsebar overlay` answers a request (``OverlayRequest/route(hosts:)``).
package enum OverlayRoute: Equatable, Sendable {
  /// `/`: the page.
  case page
  /// `/events`: the scene as Server-Sent Events, at `fps` and with `bars` (`nil`: the daemon's).
  case events(fps: Int?, bars: Int?)
  /// Refused, with a status and one line.
  case refused(OverlayRefusal)
}

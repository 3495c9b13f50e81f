import PulseBarDaemon
import Testing

/// `pulsebar overlay`'s one decision per request (``OverlayRequest/route(hosts:)``): the Host
/// check against DNS rebinding, GET and HEAD only, the two paths and the bounded arguments.
@Suite struct OverlayRequestTests {
  static let hosts = OverlayHosts(port: 7455, address: "127.0.0.1")

  @Test(
    "Host must name the overlay with its port",
    arguments: [
      ("127.0.0.1:7455", true), ("localhost:7455", true), ("LOCALHOST:7455", true),
      ("evil.example", false), ("evil.example:7455", false), ("127.0.0.1", false),
      ("127.0.0.1:7456", false), ("localhost:7455:7455", false), ("", false),
      ("127.0.0.1.evil.example:7455", false), ("[::1]:7455", false),
    ])
  func host(_ host: String, _ accepted: Bool) {
    let route = OverlayRequest(method: "GET", path: "/", host: host).route(hosts: Self.hosts)
    #expect((route == .page) == accepted, "\(host): \(route)")
    if !accepted { #expect(route == .refused(.host)) }
  }

  @Test("a missing Host is refused")
  func missingHost() {
    #expect(
      OverlayRequest(method: "GET", path: "/", host: nil).route(hosts: Self.hosts)
        == .refused(.host))
  }

  @Test("a --listen address is accepted beside loopback, and bare names only on port 80")
  func listenAddress() {
    let hosts = OverlayHosts(port: 80, address: "192.168.1.5")
    for host in ["192.168.1.5", "192.168.1.5:80", "localhost", "127.0.0.1:80"] {
      #expect(OverlayRequest(method: "GET", path: "/", host: host).route(hosts: hosts) == .page)
    }
    #expect(
      OverlayRequest(method: "GET", path: "/", host: "192.168.1.6").route(hosts: hosts)
        == .refused(.host))
  }

  @Test("GET and HEAD only", arguments: ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "get"])
  func methods(_ method: String) {
    let route = OverlayRequest(method: method, path: "/", host: "127.0.0.1:7455")
      .route(hosts: Self.hosts)
    #expect(route == .refused(.method))
    #expect(OverlayRefusal.method.status == 405)
  }

  @Test(
    "the page, the events and nothing else",
    arguments: [
      ("/", nil, nil, OverlayRoute.page),
      ("/events", nil, nil, .events(fps: nil, bars: nil)),
      ("/events", "30", "64", .events(fps: 30, bars: 64)),
      ("/events", "240", "512", .events(fps: 240, bars: 512)),
      ("/events", "0", nil, .refused(.query)), ("/events", "241", nil, .refused(.query)),
      ("/events", nil, "0", .refused(.query)), ("/events", nil, "513", .refused(.query)),
      ("/events", "30.5", nil, .refused(.query)), ("/events", "+0030", nil, .refused(.query)),
      ("/events", "99999999999999999999", nil, .refused(.query)),
      ("/index.html", nil, nil, .refused(.notFound)),
      ("/../etc/passwd", nil, nil, .refused(.notFound)),
      ("/events/", nil, nil, .refused(.notFound)), ("/control", nil, nil, .refused(.notFound)),
    ] as [(String, String?, String?, OverlayRoute)])
  func paths(_ path: String, _ fps: String?, _ bars: String?, _ expected: OverlayRoute) {
    let request = OverlayRequest(
      method: "GET", path: path, host: "localhost:7455", fps: fps, bars: bars)
    #expect(request.route(hosts: Self.hosts) == expected)
  }

  @Test("a non-loopback address is warned about, loopback is not")
  func exposure() {
    #expect(OverlayCommand.exposureWarning(address: "127.0.0.1") == nil)
    let warning = OverlayCommand.exposureWarning(address: "0.0.0.0")
    #expect(warning?.contains("warning: serving on 0.0.0.0, not loopback") == true)
  }
}

import Glibc
import PulseBarTestSupport
import Testing

@testable import PulseBarDaemon

/// `pulsebar overlay` over real TCP sockets: what a page from elsewhere (DNS rebinding), a
/// form, a flood of connections or a slowloris can do to it, and the page it serves.
@Suite(.serialized) struct OverlayHTTPTests {
  @Test("a Host that is not the overlay's is refused, whatever the path")
  func hostIsChecked() throws {
    try withTemporaryDirectory { directory in
      let overlay = try OverlayProcess(socketPath: directory + "/none.sock")
      for path in ["/", "/events"] {
        let answer = overlay.exchange("GET \(path) HTTP/1.1\r\nHost: evil.example\r\n\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 403"), "\(answer)")
        #expect(!answer.contains("<html"))
      }
      let rebound = overlay.exchange(
        "GET / HTTP/1.1\r\nHost: evil.example:\(overlay.port)\r\n\r\n")
      #expect(rebound.hasPrefix("HTTP/1.1 403"), "\(rebound)")
      let noHost = overlay.exchange("GET / HTTP/1.0\r\n\r\n")
      #expect(noHost.hasPrefix("HTTP/1.1 403") || noHost.hasPrefix("HTTP/1.0 403"), "\(noHost)")
      #expect(try overlay.terminate() == 0)
    }
  }

  @Test("only GET and HEAD, and no CORS header anywhere")
  func methodsAndNoCORS() throws {
    try withTemporaryDirectory { directory in
      let overlay = try OverlayProcess(socketPath: directory + "/none.sock")
      let host = "Host: 127.0.0.1:\(overlay.port)"
      let post = overlay.exchange(
        "POST / HTTP/1.1\r\n\(host)\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello")
      #expect(post.hasPrefix("HTTP/1.1 405"), "\(post)")
      #expect(post.contains("Allow: GET, HEAD"))
      for method in ["PUT", "DELETE", "OPTIONS", "PATCH"] {
        let answer = overlay.exchange("\(method) /events HTTP/1.1\r\n\(host)\r\n\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 405"), "\(method): \(answer)")
      }
      let head = overlay.exchange("HEAD / HTTP/1.1\r\n\(host)\r\n\r\n")
      #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
      #expect(!head.contains("<html"))
      let page = overlay.get("/")
      for answer in [post, head, page] {
        #expect(!answer.lowercased().contains("access-control-"), "\(answer.prefix(400))")
      }
      #expect(try overlay.terminate() == 0)
    }
  }

  @Test("the page: one file within 30 KB, its own CSP, nothing from elsewhere")
  func pageIsSelfContained() throws {
    try withTemporaryDirectory { directory in
      let overlay = try OverlayProcess(socketPath: directory + "/none.sock")
      let answer = overlay.get("/")
      let parts = answer.split(separator: "\r\n\r\n", maxSplits: 1)
      try #require(parts.count == 2, "\(answer.prefix(400))")
      let (head, body) = (String(parts[0]), String(parts[1]))
      #expect(head.hasPrefix("HTTP/1.1 200"))
      #expect(head.contains("Content-Type: text/html; charset=utf-8"))
      #expect(head.contains("Content-Security-Policy: \(OverlayService.contentSecurityPolicy)"))
      #expect(body.utf8.count <= 30 * 1024, "the page is \(body.utf8.count) bytes")
      #expect(body == (try readTextFile(Binary.packageRoot + "/overlay/index.html")))
      for outside in ["http:", "https:", "//", "src=", "@import", "url("] where outside != "//" {
        #expect(!body.contains(outside), "the page names \(outside)")
      }
      #expect(!body.contains("innerHTML") && !body.contains("insertAdjacentHTML"))
      #expect(try overlay.terminate() == 0)
    }
  }

  @Test("the CSP names the page's inline style and script by their sha256 (scripts/overlay-csp.sh)")
  func policyHashesThePage() throws {
    let hasher = try ChildProcess(
      "python3",
      [
        "-c",
        """
        import base64, hashlib, re, sys
        page = open(sys.argv[1], "rb").read()
        for tag in (b"style", b"script"):
            body = re.search(b"<" + tag + b">(.*?)</" + tag + b">", page, re.S).group(1)
            print(tag.decode() + "-src 'sha256-" + base64.b64encode(hashlib.sha256(body).digest()).decode() + "'")
        """,
        Binary.packageRoot + "/overlay/index.html",
      ])
    let lines = hasher.readLines(for: 10)
    #expect(try hasher.waitForExit(timeout: 10) == 0, "\(hasher.standardError)")
    #expect(lines.count == 2)
    for line in lines {
      #expect(
        "\(OverlayService.contentSecurityPolicy)".contains(line),
        "run scripts/overlay-csp.sh: the policy lacks \(line)")
    }
  }

  @Test("events relay the daemon's scene, say offline while it is away, and come back")
  func eventsFollowTheDaemon() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory, seconds: 30)
      let socketPath = directory + "/s.sock"
      let overlay = try OverlayProcess(socketPath: socketPath)
      guard let stream = OverlayProcess.connect(port: overlay.port) else {
        Issue.record("no connection")
        return
      }
      defer { close(stream) }
      let request = "GET /events?fps=30&bars=8 HTTP/1.1\r\nHost: localhost:\(overlay.port)\r\n\r\n"
      _ = request.withCString { send(stream, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
      let offline = OverlayProcess.read(stream, timeout: 3) { $0.contains("event: offline") }
      #expect(offline.contains("Content-Type: text/event-stream"), "\(offline)")
      #expect(offline.contains("retry: 1000"))
      #expect(offline.contains("event: offline\ndata: no daemon at \(socketPath)"))
      var daemon = try TestDaemon(audio: audio, socketPath: socketPath)
      let live = OverlayProcess.read(stream, timeout: 3) { $0.contains("\"bars\":[") }
      #expect(live.contains("data: {\"seq\":"), "\(live)")
      #expect(try daemon.terminate() == 0)
      let away = OverlayProcess.read(stream, timeout: 3) { $0.contains("event: offline") }
      #expect(away.contains("event: offline"), "\(away)")
      daemon = try TestDaemon(audio: audio, socketPath: socketPath)
      let started = ChildProcess.now()
      let back = OverlayProcess.read(stream, timeout: 3) { $0.contains("\"bars\":[") }
      #expect(back.contains("data: {\"seq\":"), "\(back)")
      #expect(ChildProcess.now() - started < 2)
      #expect(try daemon.terminate() == 0)
      #expect(try overlay.terminate() == 0)
    }
  }

  @Test("at most 16 event streams at once: the next is refused with 503 until one ends")
  func streamsAreBounded() throws {
    try withTemporaryDirectory { directory in
      let overlay = try OverlayProcess(socketPath: directory + "/none.sock")
      let request = "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(overlay.port)\r\n\r\n"
      func open() -> (socket: Int32, head: String)? {
        guard let socket = OverlayProcess.connect(port: overlay.port) else { return nil }
        _ = send(socket, request, request.utf8.count, Int32(MSG_NOSIGNAL))
        return (socket, OverlayProcess.read(socket, timeout: 3) { $0.contains("\r\n\r\n") })
      }
      var streams: [Int32] = []
      for _ in 0..<16 {
        guard let stream = open() else { break }
        #expect(stream.head.hasPrefix("HTTP/1.1 200"), "\(stream.head)")
        streams.append(stream.socket)
      }
      let refused = open()
      #expect(refused?.head.hasPrefix("HTTP/1.1 503") == true, "\(refused?.head ?? "")")
      if let refused { close(refused.socket) }
      close(streams.removeFirst())
      // The overlay notices the closed stream at its next event (a second at most).
      #expect(
        eventually(timeout: 5) {
          guard let again = open() else { return false }
          let served = again.head.hasPrefix("HTTP/1.1 200")
          if served { streams.append(again.socket) } else { close(again.socket) }
          return served
        })
      for socket in streams { close(socket) }
      #expect(try overlay.terminate() == 0)
    }
  }

  @Test("1,000 silent connections are bounded, and the page comes back")
  func silentFloodIsBounded() throws {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = max(limit.rlim_cur, min(limit.rlim_max, 4096))
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    try withTemporaryDirectory { directory in
      let overlay = try OverlayProcess(socketPath: directory + "/none.sock")
      #expect(overlay.get("/").hasPrefix("HTTP/1.1 200"))
      let before = overlay.residentKilobytesAndThreads
      let sockets = (0..<1000).compactMap { _ in OverlayProcess.connect(port: overlay.port) }
      #expect(sockets.count == 1000)
      var most = before
      for _ in 0..<3 {
        sleep(1)
        let now = overlay.residentKilobytesAndThreads
        most = (max(most.kilobytes, now.kilobytes), max(most.threads, now.threads))
      }
      #expect(overlay.process.isRunning)
      #expect(most.threads <= before.threads + Int(OverlayServer.connectionLimit) + 1, "\(most)")
      #expect(most.kilobytes - before.kilobytes < 48 * 1024, "\(before) → \(most)")
      // Held silent, they time out (5 s); then the page is served again.
      #expect(eventually(timeout: 15) { overlay.get("/", timeout: 2).hasPrefix("HTTP/1.1 200") })
      for socket in sockets { close(socket) }
      #expect(try overlay.terminate() == 0)
    }
  }

  @Test("a slowloris (headers a byte a second on every connection) is cut off, the page comes back")
  func slowlorisIsCutOff() throws {
    try withTemporaryDirectory { directory in
      let overlay = try OverlayProcess(socketPath: directory + "/none.sock")
      let count = Int(OverlayServer.connectionLimit)
      let slow = (0..<count).compactMap { _ in OverlayProcess.connect(port: overlay.port) }
      defer { for socket in slow { close(socket) } }
      #expect(slow.count == count)
      var open = Set(slow)
      let started = ChildProcess.now()
      var heldThePage = false
      for second in 0..<16 where !open.isEmpty {
        let bytes = second == 0 ? "GET / HTTP/1.1\r\nX-Slow: " : "a"
        for socket in open { _ = send(socket, bytes, bytes.utf8.count, Int32(MSG_NOSIGNAL)) }
        if second == 3 { heldThePage = !overlay.get("/", timeout: 1).hasPrefix("HTTP/1.1 200") }
        sleep(1)
        for socket in open {
          var byte: UInt8 = 0
          let result = recv(socket, &byte, 1, Int32(MSG_DONTWAIT))
          if result == 0 || (result < 0 && errno != EAGAIN) { open.remove(socket) }
        }
      }
      let took = ChildProcess.now() - started
      #expect(heldThePage, "the slow connections did not fill the overlay: the test tests nothing")
      #expect(open.isEmpty, "\(open.count) slow connections still open after \(took) s")
      #expect(took <= Double(OverlayServer.headerSeconds) + 3)
      #expect(eventually(timeout: 5) { overlay.get("/", timeout: 2).hasPrefix("HTTP/1.1 200") })
      #expect(try overlay.terminate() == 0)
    }
  }
}

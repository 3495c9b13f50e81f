import Glibc
import PulseBarSystem

/// One page's `/events`: a socket connection of its own to the daemon, asking for the scene
/// (`format=json`) at the page's `fps` and `bars`, relayed as Server-Sent Events
/// (`data: <json>`; ``OverlayService`` counts the streams).
///
/// While the daemon is away it sends `event: offline` once a second and tries the socket again
/// each time, so the page shows the offline state and comes back by itself within a second of
/// the daemon's return; `retry: 1000` asks the browser to reconnect as fast when the overlay
/// itself restarts. A refusal from the daemon (`error: …`) goes out as `event: error`. A silent
/// daemon still gets a comment line each second, so a page that went away is noticed. Not
/// `Sendable`: libmicrohttpd calls it from its connection's thread only, one call at a time.
final class OverlayStream {
  /// The longest line relayed (as ``ListenRelay/maximumLine``): a longer one drops the
  /// connection to the daemon.
  static let maximumLine = ListenRelay.maximumLine

  private let socketPath: String
  private let subscription: String
  private var socket: FileDescriptor?
  /// Bytes from the daemon not relayed yet (a line cut by a read).
  private var received: [UInt8]
  private var filled = 0
  /// Event-stream bytes not handed to libmicrohttpd yet, from `sent` on.
  private var output: [UInt8] = Array("retry: 1000\n\n".utf8)
  private var sent = 0
  /// When the socket may be tried again.
  private var retryAt = ContinuousClock.now

  init(socketPath: String, fps: Int?, bars: Int?) {
    self.socketPath = socketPath
    subscription = Subscription.requestLine(format: .json, bars: bars, fps: fps)
    received = Array(repeating: 0, count: Self.maximumLine)
    output.reserveCapacity(Self.maximumLine + 64)
  }

  deinit { socket?.closeQuietly() }

  /// Copies the next bytes of the stream into `buffer` (blocking up to a second for them).
  func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    while sent == output.count {
      output.removeAll(keepingCapacity: true)
      sent = 0
      produce()
    }
    let count = min(buffer.count, output.count - sent)
    output.withUnsafeBytes { bytes in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[sent..<sent + count]))
    }
    sent += count
    return count
  }

  /// Appends what comes next: events from the daemon, a comment after a silent second, or
  /// the offline event.
  private func produce() {
    guard let socket else { return connect() }
    guard !socket.wait(for: .readable, timeoutMilliseconds: 1000).isEmpty else {
      return output.append(contentsOf: ": waiting\n\n".utf8)
    }
    let start = filled
    let count = received.withUnsafeMutableBytes { bytes in
      (try? socket.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled...]))) ?? 0
    }
    guard count > 0 else { return disconnect("the daemon went away") }
    filled += count
    relayLines(scanningFrom: start)
    if filled == received.count { disconnect("a line longer than \(Self.maximumLine) bytes") }
  }

  /// Each whole line from `received` as one event; the cut line's start moves to the front.
  private func relayLines(scanningFrom start: Int) {
    var lineStart = 0
    for index in start..<filled where received[index] == UInt8(ascii: "\n") {
      let line = received[lineStart..<index]
      if line.starts(with: "error: ".utf8) {
        output.append(contentsOf: "event: error\ndata: ".utf8)
        output.append(contentsOf: line.dropFirst(7))
      } else {
        output.append(contentsOf: "data: ".utf8)
        output.append(contentsOf: line)
      }
      output.append(contentsOf: "\n\n".utf8)
      lineStart = index + 1
    }
    guard lineStart > 0 else { return }
    received.withUnsafeMutableBytes { bytes in
      let base = bytes.baseAddress!
      memmove(base, base + lineStart, filled - lineStart)
    }
    filled -= lineStart
  }

  /// Tries the daemon's socket (once a second at most); says `offline` when it is not there.
  private func connect() {
    let wait = retryAt - ContinuousClock.now
    if wait > .zero { usleep(UInt32(clamping: wait.milliseconds * 1000)) }
    retryAt = ContinuousClock.now + .seconds(1)
    switch Result(catching: { () throws(Errno) in try UnixSocket.connect(path: socketPath) }) {
    case .failure(let error):
      offline("no daemon at \(socketPath) (\(error))")
    case .success(let connected):
      guard (try? connected.writeAll(subscription)) != nil else {
        connected.closeQuietly()
        return offline("the daemon went away")
      }
      socket = connected
      filled = 0
    }
  }

  private func disconnect(_ reason: String) {
    socket?.closeQuietly()
    socket = nil
    filled = 0
    offline(reason)
  }

  private func offline(_ reason: String) {
    output.append(contentsOf: "event: offline\ndata: ".utf8)
    output.append(contentsOf: reason.utf8.filter { $0 != 10 && $0 != 13 })
    output.append(contentsOf: "\n\n".utf8)
  }
}

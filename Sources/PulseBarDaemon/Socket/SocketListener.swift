import Glibc
import PulseBarCore
import PulseBarSystem

/// The daemon's listening socket in the socket handler's epoll set: accepts without blocking,
/// and when accepting fails for want of descriptors or memory it leaves the set for 100 ms
/// (instead of spinning on a listener that stays readable), then comes back. The warning is
/// said at most once every ``warningInterval`` seconds, with how many were held back.
struct SocketListener {
  /// The listener's token in the epoll set (clients' tokens start above it).
  static let token: UInt64 = 0
  /// How long accepting pauses after a failure, in seconds.
  static let pause = 0.1
  /// The least time between two accept warnings, in seconds.
  static let warningInterval = 10.0

  let descriptor: FileDescriptor
  /// The socket file removed on ``stop(_:)``; `nil` when systemd owns it.
  let ownsPath: String?
  /// Until when accepting is paused (monotonic seconds).
  private(set) var pausedUntil: Double?
  private var warnings = LogRateLimit(interval: SocketListener.warningInterval)

  /// The socket file's device and inode when it was bound: ``stop(_:)`` removes only that file,
  /// never one another program put at the path since.
  private let boundFile: [UInt64]?

  init(_ descriptor: FileDescriptor, ownsPath: String?) {
    self.descriptor = descriptor
    self.ownsPath = ownsPath
    boundFile = ownsPath.flatMap(Self.fileIdentity)
  }

  /// (device, inode) of the file at `path`, or `nil`.
  private static func fileIdentity(_ path: String) -> [UInt64]? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return [UInt64(status.st_dev), UInt64(status.st_ino)]
  }

  /// Starts accepting: the listener joins `epoll`.
  func start(_ epoll: Epoll) throws(Errno) {
    try epoll.add(descriptor, .readable, token: Self.token)
  }

  /// The next waiting connection; `nil` when none waits, or when accepting failed and pauses
  /// (said through `logger`) from `now`, the engine's time.
  mutating func accept(_ epoll: Epoll, logger: Logger, now: Double) -> FileDescriptor? {
    while true {
      do {
        return try descriptor.accept()
      } catch .interrupted {
        continue
      } catch {
        if error.rawValue == ECONNABORTED || error.rawValue == EPROTO { continue }
        if let heldBack = warnings.admit(at: now) {
          let more = heldBack > 0 ? "; \(heldBack) more since the last" : ""
          logger.warning(
            "socket: accept: \(error); retrying every 100 ms (said at most every \(Int(Self.warningInterval)) s\(more))"
          )
        }
        epoll.remove(descriptor)
        pausedUntil = now + Self.pause
        return nil
      }
    }
  }

  /// Accepts again once the pause is over at `now`.
  mutating func resume(at now: Double, _ epoll: Epoll) {
    guard let pausedUntil, now >= pausedUntil else { return }
    self.pausedUntil = nil
    try? start(epoll)
  }

  /// Leaves `epoll`, closes, and removes the socket file it owns (if it is still the one it
  /// bound).
  func stop(_ epoll: Epoll) {
    epoll.remove(descriptor)
    descriptor.closeQuietly()
    if let ownsPath, let boundFile, Self.fileIdentity(ownsPath) == boundFile { unlink(ownsPath) }
  }
}

extension FileDescriptor {
  /// Writes a last line (an error) to a client without blocking, then closes, so the peer
  /// reads the line and EOF. Unread input at close can turn into a reset on some stacks, so a
  /// little of it is read away first, into `scratch`.
  func sendFinal(_ line: String, scratch: UnsafeMutableRawBufferPointer) {
    var line = line
    _ = line.withUTF8 { bytes in try? send(UnsafeRawBufferPointer(bytes)) }
    shutdownWrite()
    for _ in 0..<4 {
      guard let count = try? read(into: scratch), count > 0 else { break }
    }
    closeQuietly()
  }
}

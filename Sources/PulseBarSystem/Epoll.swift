internal import CLinux
import Glibc

/// The Linux readiness selector in one place: an epoll instance, with the platform bits mapped
/// to ``Events`` once (NIO's `SelectorEpoll` shape). Not `Sendable`: the compiler keeps it on
/// one thread at a time, the one that waits on it.
package final class Epoll {
  /// Readiness interests and results.
  package struct Events: OptionSet, Sendable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    package static let readable = Events(rawValue: EPOLLIN.rawValue)
    package static let writable = Events(rawValue: EPOLLOUT.rawValue)
    /// The peer shut down its sending side.
    package static let readHangup = Events(rawValue: EPOLLRDHUP.rawValue)
    /// Both sides are closed (always reported).
    package static let hangup = Events(rawValue: EPOLLHUP.rawValue)
    /// An error is pending (always reported).
    package static let error = Events(rawValue: EPOLLERR.rawValue)
  }

  private let descriptor: FileDescriptor
  private var buffer: UnsafeMutableBufferPointer<epoll_event>

  package init(maxEventsPerWait: Int = 64) throws(Errno) {
    descriptor = FileDescriptor(
      rawValue: try valueOrErrno(retryOnInterrupt: true) {
        epoll_create1(Int32(EPOLL_CLOEXEC))
      }.get())
    buffer = .allocate(capacity: maxEventsPerWait)
  }

  deinit {
    buffer.deallocate()
    descriptor.closeQuietly()
  }

  /// The epoll descriptor itself: readable while any watched descriptor is ready, so a set can
  /// sit inside another poll.
  package var pollDescriptor: FileDescriptor { descriptor }

  /// Watches `target` for `events`, reporting `token` with each readiness.
  package func add(_ target: FileDescriptor, _ events: Events, token: UInt64) throws(Errno) {
    try control(EPOLL_CTL_ADD, target, events, token)
  }

  /// Changes what `target` is watched for.
  package func modify(_ target: FileDescriptor, _ events: Events, token: UInt64) throws(Errno) {
    try control(EPOLL_CTL_MOD, target, events, token)
  }

  /// Stops watching `target` (closing it does that too).
  package func remove(_ target: FileDescriptor) {
    _ = epoll_ctl(descriptor.rawValue, EPOLL_CTL_DEL, target.rawValue, nil)
  }

  /// Waits up to `timeoutMilliseconds` (-1: forever) and calls `body` with each ready token and
  /// its events. EINTR counts as a wait that saw nothing.
  package func wait(
    timeoutMilliseconds: Int32, _ body: (UInt64, Events) -> Void
  ) throws(Errno) {
    let count = epoll_wait(
      descriptor.rawValue, buffer.baseAddress, Int32(buffer.count), timeoutMilliseconds)
    if count < 0 {
      if errno == EINTR { return }
      throw Errno.current
    }
    for index in 0..<Int(count) {
      body(buffer[index].data.u64, Events(rawValue: buffer[index].events))
    }
  }

  private func control(
    _ operation: CInt, _ target: FileDescriptor, _ events: Events, _ token: UInt64
  ) throws(Errno) {
    var event = epoll_event()
    event.events = events.rawValue
    event.data.u64 = token
    try nothingOrErrno(retryOnInterrupt: true) {
      epoll_ctl(descriptor.rawValue, operation, target.rawValue, &event)
    }.get()
  }
}

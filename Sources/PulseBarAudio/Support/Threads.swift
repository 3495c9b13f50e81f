import CLinux
import Glibc
import Synchronization

/// Starts a detached POSIX thread running `body` (no Foundation `Thread`).
///
/// `body` is `sending`: whatever it captures moves to the new thread and is
/// no longer reachable from the caller, which is what region isolation checks.
package func startThread(_ body: sending @escaping () -> Void) {
  final class Box {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
  }
  let context = Unmanaged.passRetained(Box(body)).toOpaque()
  var thread = pthread_t()
  let status = pthread_create(
    &thread, nil,
    { context in
      let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
      box.body()
      return nil
    }, context)
  precondition(status == 0, "pthread_create failed: \(status)")
  pthread_detach(thread)
}

/// Monotonic seconds (CLOCK_MONOTONIC).
package func monotonicSeconds() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// A one-shot stop request a reader thread can sleep on: an `eventfd` plus a flag.
package final class StopSignal: Sendable {
  package let descriptor: Int32 = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
  private let requested = Atomic<Bool>(false)

  package init() {}
  deinit { close(descriptor) }

  package var isRequested: Bool { requested.load(ordering: .acquiring) }

  package func request() {
    requested.store(true, ordering: .releasing)
    var one: UInt64 = 1
    _ = write(descriptor, &one, 8)
  }

  /// Sleeps up to `seconds` (or until a stop); returns false when stopped.
  package func sleep(_ seconds: Double) -> Bool {
    var descriptors = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let milliseconds = Int32(max(0, (seconds * 1000).rounded(.up)))
    _ = poll(&descriptors, 1, milliseconds)
    return !isRequested
  }

  /// Waits until `other` is readable or a stop; returns false when stopped.
  package func waitReadable(_ other: Int32, timeoutMilliseconds: Int32 = -1) -> Bool {
    var descriptors = [
      pollfd(fd: other, events: Int16(POLLIN), revents: 0),
      pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      let ready = poll(&descriptors, 2, timeoutMilliseconds)
      if ready < 0 && errno == EINTR { continue }
      return !isRequested
    }
  }
}

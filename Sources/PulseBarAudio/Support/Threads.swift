import CLinux
import Glibc
import Synchronization

/// A POSIX thread running a closure (no Foundation `Thread`).
///
/// `spawn` takes its body as `sending`: whatever the closure captures moves to
/// the new thread and is no longer reachable from the caller, which is what
/// region isolation checks (a reader thread can own a non-Sendable file).
/// The thread inherits the caller's signal mask, so the daemon's signals,
/// blocked before any thread starts, stay blocked in it.
package struct PosixThread: Sendable {
  private let handle: pthread_t

  /// Starts `body` on a new thread.
  package static func spawn(_ body: sending @escaping () -> Void) -> PosixThread {
    final class Body {
      let run: () -> Void
      init(_ run: @escaping () -> Void) { self.run = run }
    }
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    var handle = pthread_t()
    let status = pthread_create(
      &handle, nil,
      { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
      }, context)
    precondition(status == 0, "pthread_create: \(String(cString: strerror(status)))")
    return PosixThread(handle: handle)
  }

  /// Waits for the thread to finish.
  package func join() { pthread_join(handle, nil) }

  /// Lets the thread finish on its own (nobody will join it).
  package func detach() { pthread_detach(handle) }

  /// True when called on this thread.
  package var isCurrent: Bool { pthread_equal(handle, pthread_self()) != 0 }
}

/// Monotonic seconds (CLOCK_MONOTONIC).
package func monotonicSeconds() -> Double {
  Double(monotonicNanoseconds()) / 1e9
}

/// Monotonic nanoseconds (`CLOCK_MONOTONIC`, the clock timerfds use too).
package func monotonicNanoseconds() -> UInt64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
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

import Glibc

/// A joinable POSIX thread running a Sendable closure (no Foundation `Thread`).
package struct PosixThread: Sendable {
  private let handle: pthread_t

  /// Starts `body` on a new thread. The thread inherits the caller's signal mask, so daemon
  /// signals stay blocked in it (see ``SignalHandling``).
  package static func spawn(_ body: @escaping @Sendable () -> Void) -> PosixThread {
    let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var handle = pthread_t()
    let status = pthread_create(
      &handle, nil,
      { context in
        Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
        return nil
      }, box)
    precondition(status == 0, "pthread_create: \(String(cString: strerror(status)))")
    return PosixThread(handle: handle)
  }

  /// Waits for the thread to finish.
  package func join() {
    pthread_join(handle, nil)
  }

  /// True when called on this thread.
  package var isCurrent: Bool { pthread_equal(handle, pthread_self()) != 0 }
}

/// The closure a new thread runs, boxed to cross `pthread_create`'s `void *`.
private final class ThreadBody: Sendable {
  let run: @Sendable () -> Void
  init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

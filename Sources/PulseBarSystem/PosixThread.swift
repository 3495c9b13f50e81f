internal import CLinux
import Glibc

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

  /// Names the calling thread (`/proc/PID/task/TID/comm`, at most 15 bytes), so tools and
  /// tests can tell the threads apart.
  package static func nameCurrent(_ name: String) {
    _ = pulsebar_name_thread(String(name.utf8.prefix(15))!)
  }

  /// True when called on this thread.
  package var isCurrent: Bool { pthread_equal(handle, pthread_self()) != 0 }
}

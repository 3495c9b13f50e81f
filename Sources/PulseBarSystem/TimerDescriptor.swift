internal import CLinux
import Glibc

/// A one-shot monotonic timerfd armed at absolute deadlines.
package enum TimerDescriptor {
  /// A non-blocking, close-on-exec timerfd on `CLOCK_MONOTONIC`.
  package static func make() throws(Errno) -> FileDescriptor {
    let flags = Int32(TFD_CLOEXEC) | Int32(TFD_NONBLOCK)
    return FileDescriptor(
      rawValue: try valueOrErrno(retryOnInterrupt: true) {
        timerfd_create(CLOCK_MONOTONIC, flags)
      }.get())
  }

  /// Arms the timer to fire once at `deadline` (monotonic nanoseconds); `nil` disarms it.
  package static func arm(_ descriptor: FileDescriptor, at deadline: UInt64?) {
    var spec = itimerspec()
    if let deadline {
      // A zero it_value disarms, so a deadline already past becomes 1 ns.
      let when = max(deadline, 1)
      spec.it_value.tv_sec = Int(when / 1_000_000_000)
      spec.it_value.tv_nsec = Int(when % 1_000_000_000)
    }
    _ = timerfd_settime(descriptor.rawValue, Int32(TFD_TIMER_ABSTIME), &spec, nil)
  }
}

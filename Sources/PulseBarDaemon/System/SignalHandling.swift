import CLinux
import Glibc

/// The daemon's signals, read synchronously from a `signalfd` on the main thread.
///
/// ``blockDaemonSignals()`` must run first thing in `main`, before any thread exists, so that
/// every thread inherits the blocked mask and no handler ever runs on an arbitrary thread.
package enum SignalHandling {
  /// SIGTERM and SIGINT stop; SIGHUP and SIGUSR1 reload the config.
  package static let daemonSignals: [CInt] = [SIGTERM, SIGINT, SIGHUP, SIGUSR1]

  /// Blocks the daemon's signals in the calling thread (and so in every thread it spawns later)
  /// and ignores SIGPIPE, so a vanished socket client or stdout reader is an EPIPE, not a death.
  package static func blockDaemonSignals() {
    var set = signalSet()
    pthread_sigmask(SIG_BLOCK, &set, nil)
    signal(SIGPIPE, SIG_IGN)
  }

  /// The blocked daemon signals as a `sigset_t`.
  package static func signalSet() -> sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    for number in daemonSignals { sigaddset(&set, number) }
    return set
  }
}

/// What a received signal asks for.
package enum DaemonSignal: Equatable, Sendable {
  /// SIGTERM or SIGINT: exit cleanly.
  case terminate(CInt)
  /// SIGHUP or SIGUSR1: reload the config.
  case reload(CInt)
}

/// A `signalfd` for the daemon's (blocked) signals. Confined to the thread that reads it.
package final class SignalReceiver {
  /// The signalfd, for callers that poll it beside other descriptors.
  package let descriptor: FileDescriptor

  package init() throws(Errno) {
    var set = SignalHandling.signalSet()
    let flags = Int32(SFD_CLOEXEC) | Int32(SFD_NONBLOCK)
    descriptor = FileDescriptor(
      rawValue: try valueOrErrno(retryOnInterrupt: true) { signalfd(-1, &set, flags) }.get())
  }

  deinit { descriptor.closeQuietly() }

  /// A pending signal, without waiting.
  package func poll() -> DaemonSignal? {
    var info = signalfd_siginfo()
    let size = MemoryLayout<signalfd_siginfo>.size
    let count = withUnsafeMutableBytes(of: &info) { buffer in
      (try? descriptor.read(into: buffer)) ?? 0
    }
    guard count == size else { return nil }
    let number = CInt(info.ssi_signo)
    return number == SIGTERM || number == SIGINT ? .terminate(number) : .reload(number)
  }

  /// Waits up to `timeout` (forever when `nil`) for a signal.
  package func wait(timeout: Duration?) -> DaemonSignal? {
    if let signal = poll() { return signal }
    var descriptors = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
    let milliseconds = timeout.map { Int32(clamping: $0.milliseconds) } ?? -1
    _ = Glibc.poll(&descriptors, 1, milliseconds)
    return poll()
  }

  /// The daemon's main-thread loop: waits for signals, pings the watchdog on time, calls
  /// `reload` on SIGHUP/SIGUSR1 (wrapped in `RELOADING=1` … `READY=1`), and returns the
  /// signal that asked to stop after sending `STOPPING=1`.
  package func run(
    notifier: SystemdNotifier?, status: () -> String = { "running" },
    reload: () -> Void
  ) -> CInt {
    let interval = notifier?.watchdogInterval
    var nextPing = interval.map { ContinuousClock.now + $0 }
    while true {
      let timeout = nextPing.map { max(.zero, $0 - ContinuousClock.now) }
      let received = wait(timeout: timeout)
      if let interval, let due = nextPing, ContinuousClock.now >= due {
        notifier?.watchdog()
        nextPing = due + interval
        if nextPing! < ContinuousClock.now { nextPing = ContinuousClock.now + interval }
      }
      switch received {
      case .terminate(let number):
        notifier?.stopping()
        return number
      case .reload:
        notifier?.reloading()
        reload()
        notifier?.ready(status: status())
      case nil:
        continue
      }
    }
  }
}

extension Duration {
  /// Whole milliseconds, rounded up so a short wait never becomes a busy loop.
  package var milliseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
  }
}

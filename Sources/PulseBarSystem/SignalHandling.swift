internal import CLinux
import Glibc

/// The daemon's signals, read synchronously from a `signalfd` on the main thread.
///
/// ``blockDaemonSignals()`` must run before the command starts any thread (the capture's, the
/// players', the socket server's), so that every thread inherits the blocked mask and no
/// signal is ever delivered to an arbitrary thread. `pulsebar run` and `pulsebar listen` call
/// it through ``SignalReceiver/blockingDaemonSignals(command:)`` once options and config are
/// read; ``ignoreBrokenPipe()`` runs at the top of `main`.
package enum SignalHandling {
  /// SIGTERM and SIGINT stop; SIGHUP and SIGUSR1 reload the config.
  /// SIGWINCH: the terminal view was resized (a frame is drawn at once).
  package static let daemonSignals: [CInt] = [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGWINCH]

  /// Blocks the daemon's signals in the calling thread (and so in every thread it spawns later).
  package static func blockDaemonSignals() {
    var set = signalSet()
    pthread_sigmask(SIG_BLOCK, &set, nil)
  }

  /// Ignores SIGPIPE for the whole process, so a write to a reader that went away (a bar that
  /// closed `pulsebar listen`'s pipe, a consumer of `run`'s or `--offline`'s stdout, a daemon
  /// that closed `listen`'s socket) fails with EPIPE and the command ends or reconnects
  /// cleanly, instead of the kernel killing it mid-write. Called once, first thing in `main`:
  /// the disposition is process-wide, and every command that writes a stream needs it.
  package static func ignoreBrokenPipe() {
    signal(SIGPIPE, SIG_IGN)
  }

  /// Signals whose default action ends the process but that mean nothing to pulsebar.
  package static let straySignals: [CInt] = [SIGUSR2, SIGALRM]

  /// Ignores ``straySignals`` for the whole process: a stray `kill -USR2` (a script's "reload"
  /// meant for another program) or an alarm does not end the daemon, which would leave its
  /// socket file behind. SIGTERM and SIGINT end it cleanly, removing the socket. Called once,
  /// first thing in `main`, beside ``ignoreBrokenPipe()``.
  package static func ignoreStraySignals() {
    for number in straySignals { signal(number, SIG_IGN) }
  }

  /// The blocked daemon signals as a `sigset_t`.
  static func signalSet() -> sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    for number in daemonSignals { sigaddset(&set, number) }
    return set
  }
}

extension Duration {
  /// Whole milliseconds, rounded up so a short wait never becomes a busy loop.
  package var milliseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
  }
}

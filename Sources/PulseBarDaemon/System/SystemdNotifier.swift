import Glibc
import PulseBarSystem

/// `sd_notify` without libsystemd: datagrams to `NOTIFY_SOCKET` (a path, or `@name` for an
/// abstract socket).
///
/// Messages are best effort, as in libsystemd: a notify socket that went away is not an error
/// the daemon can do anything about.
package struct SystemdNotifier: Sendable {
  private let sender: UnixDatagramSender
  /// How often to send `WATCHDOG=1`, in seconds: half of `WATCHDOG_USEC`, when that is set for
  /// this process.
  package let watchdogInterval: Double?

  /// The notifier for `NOTIFY_SOCKET`, or `nil` when systemd did not ask for notifications.
  package static func fromEnvironment() -> SystemdNotifier? {
    guard let path = environment("NOTIFY_SOCKET"), let sender = UnixDatagramSender(path: path)
    else { return nil }
    var interval: Double?
    let watchdogPid = environment("WATCHDOG_PID").flatMap { Int32($0) }
    if let usec = environment("WATCHDOG_USEC").flatMap({ Int64($0) }), usec > 0,
      watchdogPid == nil || watchdogPid == getpid()
    {
      interval = Double(usec / 2) / 1e6
    }
    return SystemdNotifier(sender: sender, watchdogInterval: interval)
  }

  /// Sends one notification (`KEY=value` lines); true when the datagram went out.
  @discardableResult
  package func send(_ message: String) -> Bool { sender.send(message) }

  /// `READY=1` with a status line.
  package func ready(status: String) { send("READY=1\nSTATUS=\(Self.clean(status))") }

  /// `STATUS=…` (one line).
  package func status(_ text: String) { send("STATUS=\(Self.clean(text))") }

  /// `WATCHDOG=1`: the service is alive.
  package func watchdog() { send("WATCHDOG=1") }

  /// `RELOADING=1` with the `MONOTONIC_USEC` stamp systemd ≥ 253 expects (`Type=notify-reload`).
  package func reloading() {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let microseconds = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    send("RELOADING=1\nMONOTONIC_USEC=\(microseconds)")
  }

  /// `STOPPING=1`.
  package func stopping() { send("STOPPING=1") }

  /// Sends `WATCHDOG=1` every ``watchdogInterval`` from a thread of its own, for the life of
  /// the process, while `isHealthy(limit)` says the engine has not been stuck in one piece of
  /// work for longer than `limit` seconds (one interval); does nothing when systemd set
  /// no watchdog. A hung engine stops the pings and systemd restarts the service.
  package func startWatchdog(
    isHealthy: @escaping @Sendable (_ limit: Double) -> Bool = { _ in true }
  ) {
    guard let interval = watchdogInterval else { return }
    let notifier = self
    PosixThread.spawn {
      let microseconds = UInt32(min(max(1, (interval * 1e6).rounded()), Double(UInt32.max)))
      while true {
        if isHealthy(interval) { notifier.watchdog() }
        // A signal cutting the sleep short only makes a ping early, which is harmless.
        usleep(microseconds)
      }
    }.detach()
  }

  /// A status line without newlines (a newline would start a new key).
  private static func clean(_ text: String) -> String {
    String(text.map { $0.isNewline ? " " : $0 })
  }
}

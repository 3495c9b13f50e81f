/// What a received signal asks for.
package enum DaemonSignal: Equatable, Sendable {
  /// SIGTERM or SIGINT: exit cleanly.
  case terminate(CInt)
  /// SIGHUP or SIGUSR1: reload the config.
  case reload(CInt)
  /// SIGWINCH: the terminal was resized.
  case resize
}

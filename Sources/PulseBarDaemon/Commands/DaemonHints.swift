/// The suggestions every command makes about the daemon, worded once: `status` and `listen`
/// said different things to start it, and "socket in use" named neither way forward.
package enum DaemonHints {
  /// How to start a daemon, after "no daemon at PATH (…)".
  package static let start =
    "start it with `systemctl --user enable --now pulsebar.socket` (or `pulsebar run --socket --no-stdout`)"

  /// What to do when another daemon already serves the socket.
  package static let socketInUse =
    "read it with `pulsebar listen`, or stop it with `systemctl --user stop pulsebar.service pulsebar.socket`"
}

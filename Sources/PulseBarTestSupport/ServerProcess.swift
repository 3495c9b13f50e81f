import Glibc

/// One process of a private audio server: its program name and process id.
package struct ServerProcess: Sendable, Equatable {
  /// The program's name as the kernel keeps it (`/proc/PID/comm`): `pulseaudio`, `pipewire`,
  /// `wireplumber`, `pipewire-pulse`.
  package var name: String
  package var pid: pid_t
}

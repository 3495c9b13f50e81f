import Glibc

/// One process of a private audio server: its program name and process id.
package struct ServerProcess: Sendable, Equatable {
  /// The program's name as the kernel keeps it (`/proc/PID/comm`): `pulseaudio`, `pipewire`,
  /// `wireplumber`, `pipewire-pulse`.
  package var name: String
  package var pid: pid_t
}

extension PrivateAudioServer {
  /// Every process the server runs, in start order (PulseAudio: `pulseaudio`; PipeWire:
  /// `pipewire`, `wireplumber`, `pipewire-pulse`), for benchmarks that add up the whole
  /// server's CPU; empty while it does not run.
  ///
  /// They are the children of the ``ServerGuard``'s shell, the parent of ``serverPid``, found
  /// in `/proc` (the shell itself only waits, so it is left out).
  package var serverProcesses: [ServerProcess] {
    guard serverPid > 0, let guardPid = Self.parent(of: serverPid), let proc = opendir("/proc")
    else { return [] }
    defer { closedir(proc) }
    var found: [ServerProcess] = []
    while let entry = readdir(proc) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard let pid = pid_t(name), Self.parent(of: pid) == guardPid,
        let comm = PrivatePulseServer.readFile("/proc/\(pid)/comm")
      else { continue }
      found.append(ServerProcess(name: comm.filter { $0 != "\n" }, pid: pid))
    }
    return found.sorted { $0.pid < $1.pid }
  }

  /// The parent process id of `pid` (field 4 of `/proc/PID/stat`, after the command in
  /// parentheses), or `nil` when it is gone.
  private static func parent(of pid: pid_t) -> pid_t? {
    guard let stat = PrivatePulseServer.readFile("/proc/\(pid)/stat"),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return fields.count > 1 ? pid_t(fields[1]) : nil
  }
}

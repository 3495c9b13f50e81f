import Glibc
import PulseBarSystem

extension PrivateAudioServer {
  /// Every process the server runs, in start order (PulseAudio: `pulseaudio`; PipeWire:
  /// `pipewire`, `wireplumber`, `pipewire-pulse`), for benchmarks that add up the whole
  /// server's CPU; empty while it does not run.
  ///
  /// They are the children of the ``ServerGuard``'s shell, the parent of ``serverPid``, found
  /// in `/proc` (the shell itself only waits, so it is left out).
  package var serverProcesses: [ServerProcess] {
    guard serverPid > 0, let guardPid = ProcessTable.parent(of: serverPid),
      let proc = opendir("/proc")
    else { return [] }
    defer { closedir(proc) }
    var found: [ServerProcess] = []
    while let entry = readdir(proc) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard let pid = pid_t(name), ProcessTable.parent(of: pid) == guardPid,
        let comm = PrivatePulseServer.readFile("/proc/\(pid)/comm")
      else { continue }
      found.append(ServerProcess(name: comm.filter { $0 != "\n" }, pid: pid))
    }
    return found.sorted { $0.pid < $1.pid }
  }
}

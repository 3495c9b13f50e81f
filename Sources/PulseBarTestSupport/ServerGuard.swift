import Glibc

/// A private server's processes under one `sh` guard: the script starts them, prints the pid
/// of the one that serves clients, then `read`s its stdin, a pipe from this process; when the
/// pipe closes (``kill()``, or this process dies) the script kills them all with SIGKILL, so
/// a crashed test run leaves nothing behind. Confined to its creator.
package final class ServerGuard {
  /// The serving process's id, as the script printed it.
  package let pid: pid_t
  private let process: ChildProcess

  /// Runs `script` (with `arguments` as `$1`…) and reads the pid it prints first; `name`
  /// is what an error calls the server.
  package init(
    _ name: String, script: String, arguments: [String] = [], environment: [String: String]
  ) throws(SpawnError) {
    process = try ChildProcess(
      "sh", ["-c", script, "sh"] + arguments, environment: environment, stdin: true)
    guard let line = process.readLine(timeout: 10), let pid = Int32(line) else {
      process.closeStdin()
      throw SpawnError(message: "\(name) did not start: \(process.standardError)")
    }
    self.pid = pid
  }

  /// Polls `ready` every 20 ms for up to `timeout` s; false on timeout or once the guard has
  /// exited.
  package func wait(timeout: Double = 10, until ready: () -> Bool) -> Bool {
    let deadline = ChildProcess.now() + timeout
    while ChildProcess.now() < deadline {
      if ready() { return true }
      if !process.isRunning { return false }
      usleep(20_000)
    }
    return false
  }

  /// Closes the guard's stdin: its processes are killed; waits until the guard is gone.
  package func kill() {
    process.closeStdin()
    _ = try? process.waitForExit(timeout: 5)
  }

  /// A new directory `/tmp/<prefix>.XXXXXX` for a private server.
  package static func makeTemporaryDirectory(_ prefix: String) throws(SpawnError) -> String {
    var template = Array("/tmp/\(prefix).XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      throw SpawnError(message: "mkdtemp: \(String(cString: strerror(errno)))")
    }
    return String(cString: made)
  }
}

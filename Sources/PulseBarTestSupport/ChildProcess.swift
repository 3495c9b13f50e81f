import Glibc

/// A real child process for integration tests: spawned with `posix_spawn`,
/// stdout and stderr captured through pipes, read line by line with deadlines,
/// signalled and reaped. Confined to the test that created it.
package final class ChildProcess {
  /// The child's process id.
  package let pid: pid_t
  private let stdoutDescriptor: Int32
  private let stderrDescriptor: Int32
  private var stdinDescriptor: Int32
  private var stdoutPending: [UInt8] = []
  private var stderrBytes: [UInt8] = []
  private var exitStatus: Int32?
  /// CPU seconds (user + system) the child and its waited-for children used; set once it exited.
  package private(set) var cpuSeconds: Double = 0

  /// Spawns `executable` (a path, or a name looked up in PATH) with `arguments`.
  ///
  /// `environment` entries are added to (or replace) this process's environment.
  /// With `stdoutToPipe` false the child's stdout is inherited instead.
  package init(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:],
    stdin: Bool = false
  ) throws(SpawnError) {
    var outPipe: [Int32] = [0, 0]
    var errPipe: [Int32] = [0, 0]
    var inPipe: [Int32] = [-1, -1]
    guard Self.makePipe(&outPipe), Self.makePipe(&errPipe), !stdin || Self.makePipe(&inPipe)
    else {
      throw SpawnError(message: "pipe: \(String(cString: strerror(errno)))")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
    if stdin {
      posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
    } else {
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // Start the child with default signal dispositions and an empty mask, whatever the test runner set.
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

    let environmentStrings = Self.environment(adding: environment)
    var childPid: pid_t = 0
    let argv = [executable] + arguments
    let status = withCStrings(argv) { argvPointers in
      withCStrings(environmentStrings) { envPointers in
        posix_spawnp(&childPid, executable, &actions, &attributes, argvPointers, envPointers)
      }
    }
    close(outPipe[1])
    close(errPipe[1])
    if stdin { close(inPipe[0]) }
    guard status == 0 else {
      close(outPipe[0])
      close(errPipe[0])
      throw SpawnError(message: "spawn \(executable): \(String(cString: strerror(status)))")
    }
    pid = childPid
    stdoutDescriptor = outPipe[0]
    stderrDescriptor = errPipe[0]
    stdinDescriptor = stdin ? inPipe[1] : -1
    _ = fcntl(stdoutDescriptor, F_SETFL, fcntl(stdoutDescriptor, F_GETFL) | O_NONBLOCK)
    _ = fcntl(stderrDescriptor, F_SETFL, fcntl(stderrDescriptor, F_GETFL) | O_NONBLOCK)
  }

  /// This process's environment with `entries` added or replaced, as `KEY=value` strings.
  private static func environment(adding entries: [String: String]) -> [String] {
    var merged: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let text = String(cString: pointer)
      if let equals = text.firstIndex(of: "=") {
        merged[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      entry += 1
    }
    for (key, value) in entries { merged[key] = value }
    return merged.map { "\($0.key)=\($0.value)" }
  }

  deinit {
    if exitStatus == nil {
      kill(pid, SIGKILL)
      _ = try? waitForExit(timeout: 5)
    }
    close(stdoutDescriptor)
    close(stderrDescriptor)
    if stdinDescriptor >= 0 { close(stdinDescriptor) }
  }

  // MARK: - Output

  /// The next complete stdout line (without `\n`), or `nil` if none arrives within `timeout` seconds or stdout closes.
  package func readLine(timeout: Double) -> String? {
    let deadline = Self.now() + timeout
    while true {
      if let newline = stdoutPending.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: stdoutPending[..<newline], as: UTF8.self)
        stdoutPending.removeSubrange(...newline)
        return line
      }
      let remaining = deadline - Self.now()
      if remaining <= 0 { return nil }
      if !pump(timeout: remaining) {
        // Closed: what is pending may still hold whole lines, or a last unterminated one.
        if stdoutPending.contains(UInt8(ascii: "\n")) { continue }
        guard !stdoutPending.isEmpty else { return nil }
        defer { stdoutPending.removeAll() }
        return String(decoding: stdoutPending, as: UTF8.self)
      }
    }
  }

  /// Every stdout line that arrives within `duration` seconds (or until stdout closes).
  package func readLines(for duration: Double) -> [String] {
    let deadline = Self.now() + duration
    var lines: [String] = []
    while true {
      let remaining = deadline - Self.now()
      if remaining <= 0 { break }
      guard let line = readLine(timeout: remaining) else { break }
      lines.append(line)
    }
    return lines
  }

  /// Every stdout byte until stdout closes or `timeout` seconds pass (a screenshot tool's image).
  package func readAllBytes(timeout: Double) -> [UInt8] {
    let deadline = Self.now() + timeout
    while Self.now() < deadline, pump(timeout: deadline - Self.now()) {}
    defer { stdoutPending.removeAll() }
    return stdoutPending
  }

  /// Reads stdout lines until one satisfies `predicate`; returns it, or `nil` on timeout.
  package func waitForLine(timeout: Double, where predicate: (String) -> Bool) -> String? {
    let deadline = Self.now() + timeout
    while true {
      let remaining = deadline - Self.now()
      if remaining <= 0 { return nil }
      guard let line = readLine(timeout: remaining) else { return nil }
      if predicate(line) { return line }
    }
  }

  /// Everything the child wrote to stderr so far (drained without blocking).
  package var standardError: String {
    drain(stderrDescriptor, into: &stderrBytes)
    return String(decoding: stderrBytes, as: UTF8.self)
  }

  /// Writes bytes to the child's stdin (spawned with `stdin: true`).
  package func writeToStdin(_ text: String) {
    guard stdinDescriptor >= 0 else { return }
    var text = text
    _ = text.withUTF8 { write(stdinDescriptor, $0.baseAddress, $0.count) }
  }

  /// Closes the child's stdin.
  package func closeStdin() {
    if stdinDescriptor >= 0 {
      close(stdinDescriptor)
      stdinDescriptor = -1
    }
  }

  // MARK: - Life

  /// Sends `signal` to the child.
  package func send(_ signal: Int32) { kill(pid, signal) }

  /// Waits up to `timeout` seconds; returns the exit code (128 + signal when killed by one).
  package func waitForExit(timeout: Double) throws(SpawnError) -> Int32 {
    if let exitStatus { return exitStatus }
    let deadline = Self.now() + timeout
    while true {
      var status: Int32 = 0
      var usage = rusage()
      let result = wait4(pid, &status, WNOHANG, &usage)
      if result < 0 && errno == ECHILD {
        exitStatus = -1
        return -1
      }
      if result == pid {
        cpuSeconds =
          Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
          + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        exitStatus = code
        drain(stderrDescriptor, into: &stderrBytes)
        return code
      }
      if Self.now() > deadline {
        throw SpawnError(message: "pid \(pid) still running after \(timeout) s")
      }
      drain(stdoutDescriptor, into: &stdoutPending)
      drain(stderrDescriptor, into: &stderrBytes)
      usleep(10_000)
    }
  }

  /// True while the child has not exited.
  package var isRunning: Bool {
    if exitStatus != nil { return false }
    return (try? waitForExit(timeout: 0)) == nil
  }

  // MARK: - Plumbing

  /// `pipe` with both ends close-on-exec (the spawn's dup2 clears it on the child's copies).
  private static func makePipe(_ descriptors: inout [Int32]) -> Bool {
    guard pipe(&descriptors) == 0 else { return false }
    for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    return true
  }

  /// Waits for stdout data; false when stdout is closed and nothing is pending.
  private func pump(timeout: Double) -> Bool {
    var descriptors = [
      pollfd(fd: stdoutDescriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: stderrDescriptor, events: Int16(POLLIN), revents: 0),
    ]
    let ready = poll(&descriptors, 2, Int32(max(1, timeout * 1000)))
    if ready <= 0 { return ready == 0 || errno == EINTR }
    if descriptors[1].revents != 0 { drain(stderrDescriptor, into: &stderrBytes) }
    if descriptors[0].revents != 0 {
      return drain(stdoutDescriptor, into: &stdoutPending)
    }
    return true
  }

  /// Reads what is available; false at end of file.
  @discardableResult
  private func drain(_ descriptor: Int32, into bytes: inout [UInt8]) -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = read(descriptor, &chunk, chunk.count)
      if count > 0 {
        bytes.append(contentsOf: chunk[..<count])
      } else if count == 0 {
        return false
      } else {
        return errno == EAGAIN || errno == EINTR
      }
    }
  }

  /// Monotonic seconds.
  package static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}

/// Calls `body` with a NULL-terminated `char *[]` of `strings`.
private func withCStrings<R>(
  _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R
) -> R {
  let pointers = strings.map { strdup($0) } + [nil]
  defer { for pointer in pointers { free(pointer) } }
  return body(pointers)
}

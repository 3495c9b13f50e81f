import Glibc
import PulseBarSystem
import PulseBarTestSupport
import Testing

/// The daemon's socket path in directories other users can reach: a socket is replaced only
/// when it is ours and refuses connections, and a directory that is not private is one warning.
/// They give files to another user (chown), so they run as root, as `make test` and CI do;
/// where a refusal needs an unprivileged daemon it runs as nobody.
@Suite(.serialized, .enabled(if: geteuid() == 0, "needs root to chown files"))
struct SocketPathTests {
  static let nobody: uid_t = 65534

  /// (device, inode) of the file at `path`, or nil.
  static func identity(_ path: String) -> [UInt64]? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return [UInt64(status.st_dev), UInt64(status.st_ino)]
  }

  /// A stale socket (nothing listens) owned by another user is never replaced or unlinked.
  @Test func aStaleSocketOfAnotherUserIsKept() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/pulsebar.sock"
      try UnixSocket.listen(path: path).closeQuietly()
      try #require(chown(path, Self.nobody, Self.nobody) == 0)
      let before = Self.identity(path)
      let error = #expect(throws: UnixSocket.ListenError.self) {
        try UnixSocket.listen(path: path).closeQuietly()
      }
      #expect(
        error?.description
          == "\(path): a socket of uid 65534, not replaced: \(Errno(rawValue: EPERM))")
      #expect(Self.identity(path) == before, "the other user's socket was replaced")
      // The stale socket of our own user is replaced, as before.
      try #require(chown(path, 0, 0) == 0)
      let ours = try UnixSocket.listen(path: path)
      ours.closeQuietly()
      #expect(Self.identity(path) != before)
    }
  }

  /// A daemon running as nobody in a directory anyone may write (0777): a socket of its own
  /// user that answers EACCES (mode 0500) is not known to be stale, so it is kept and the
  /// daemon exits 1 with one line; the directory gets a warning.
  @Test func aSocketThatAnswersEACCESIsNotTakenAsStale() throws {
    try withTemporaryDirectory { directory in
      try #require(chmod(directory, 0o755) == 0)
      let audio = try makeTestAudio(in: directory, seconds: 2)
      try #require(chmod(audio, 0o644) == 0)
      let shared = directory + "/shared"
      try #require(mkdir(shared, 0o777) == 0 && chmod(shared, 0o777) == 0)
      let path = shared + "/pulsebar.sock"
      let live = try UnixSocket.listen(path: path)
      defer { live.closeQuietly() }
      try #require(chown(path, Self.nobody, Self.nobody) == 0 && chmod(path, 0o500) == 0)
      let before = Self.identity(path)
      let daemon = try ChildProcess(
        "setpriv",
        [
          "--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups", Binary.path,
          "run", "--input", "file:" + audio, "--no-stdout", "--socket", path,
        ],
        environment: ["XDG_CONFIG_HOME": directory, "HOME": directory])
      #expect(try daemon.waitForExit(timeout: 10) == 1, "\(daemon.standardError)")
      let lines = daemon.standardError.split(separator: "\n").map(String.init)
      #expect(
        lines.contains(
          "pulsebar: socket: \(path): not known to be stale, not replaced (connect): \(Errno(rawValue: EACCES))"
        ), "\(lines)")
      #expect(
        lines.contains {
          $0.hasPrefix(
            "pulsebar: socket: \(shared) is owned by uid 0 and writable by others (mode 777)")
        }, "\(lines)")
      #expect(Self.identity(path) == before, "the socket was replaced")
    }
  }

  /// `--socket PATH` in a directory that is not private: one warning line, and the daemon runs;
  /// in a private one, none.
  @Test func aDirectoryThatIsNotPrivateIsOneWarning() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory, seconds: 30)
      for (mode, owner, warning) in [
        (0o777 as mode_t, 0 as uid_t, "is writable by others (mode 777)"),
        (0o770, 0, "is writable by its group (mode 770)"),
        (0o700, Self.nobody, "is owned by uid 65534"),
        (0o700, 0, nil),
      ] as [(mode_t, uid_t, String?)] {
        let socketDirectory = directory + "/run-\(String(mode, radix: 8))-\(owner)"
        try #require(mkdir(socketDirectory, mode) == 0 && chmod(socketDirectory, mode) == 0)
        try #require(chown(socketDirectory, owner, owner) == 0)
        let daemon = try TestDaemon(audio: audio, socketPath: socketDirectory + "/s.sock")
        #expect(try daemon.terminate() == 0)
        let said = daemon.process.standardError.split(separator: "\n").filter {
          $0.contains("socket: \(socketDirectory) ")
        }
        if let warning {
          #expect(said.count == 1 && said[0].contains(warning), "\(said)")
        } else {
          #expect(said.isEmpty, "\(said)")
        }
      }
    }
  }

  /// At exit the daemon removes its socket file only if it is still the one it bound: a socket
  /// another program put at the path meanwhile stays.
  @Test func aSocketReplacedMeanwhileIsNotRemovedAtExit() throws {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory, seconds: 30)
      let daemon = try TestDaemon(audio: audio, socketPath: directory + "/s.sock")
      let other = try UnixSocket.listen(path: directory + "/other.sock")
      defer { other.closeQuietly() }
      try #require(rename(directory + "/other.sock", daemon.socketPath) == 0)
      let before = Self.identity(daemon.socketPath)
      #expect(try daemon.terminate() == 0)
      #expect(Self.identity(daemon.socketPath) == before, "the other socket was removed")
    }
  }
}

import Glibc
import PulseBarTestSupport
import Testing

/// The built `pulsebar` binary and scratch files for tests that run it as a real process.
enum Binary {
  /// The package root.
  static var packageRoot: String { PackageRoot.path }

  /// The `pulsebar` binary the tests run: `$PULSEBAR_BINARY` when set (`make sanitize` points
  /// it at the sanitized build), else `.build/debug/pulsebar` (`make test` builds it first).
  static let path: String = {
    if let chosen = getenv("PULSEBAR_BINARY") { return String(cString: chosen) }
    return PackageRoot.path + "/.build/debug/pulsebar"
  }()

  /// The sanitizer the binary and tests are built with (`make sanitize` sets
  /// `PULSEBAR_SANITIZER` to `thread` or `address`), or `nil` in a normal build.
  static let sanitizer: String? = getenv("PULSEBAR_SANITIZER").map { String(cString: $0) }

  /// Runs pulsebar to completion; returns exit code, stdout lines and stderr.
  static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 60)
    throws -> (status: Int32, lines: [String], error: String)
  {
    #expect(access(path, X_OK) == 0, "build pulsebar first: \(path) is missing")
    let child = try ChildProcess(path, arguments, environment: environment)
    var lines: [String] = []
    let deadline = ChildProcess.now() + timeout
    while let line = child.readLine(timeout: max(0.1, deadline - ChildProcess.now())) {
      lines.append(line)
    }
    let status = try child.waitForExit(timeout: max(1, deadline - ChildProcess.now()))
    return (status, lines, child.standardError)
  }

  /// A fresh temporary directory.
  static func temporaryDirectory() -> String {
    var template = Array("/tmp/pulsebar-test-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
  }

  /// Runs a shell command (sox, printf, …) for test fixtures; fails the test if it fails.
  static func shell(_ command: String) throws {
    let child = try ChildProcess("sh", ["-c", command])
    let status = try child.waitForExit(timeout: 60)
    #expect(status == 0, "\(command) failed: \(child.standardError)")
  }
}

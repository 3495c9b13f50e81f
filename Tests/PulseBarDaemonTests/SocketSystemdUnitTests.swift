import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarSystem
import PulseBarTestSupport
import Testing

@testable import PulseBarDaemon

/// The shipped systemd units, installed as `make install` does, pass `systemd-analyze --user
/// verify` without a single warning. verify also runs `man pulsebar(1)` for the service's
/// `Documentation=`: the generated page is installed beside them and `MANPATH` names its tree.
@Suite struct SocketSystemdUnitTests {
  @Test func installedUnitsVerify() throws {
    try #require(access("/usr/bin/systemd-analyze", X_OK) == 0, "systemd-analyze is missing")
    try withTemporaryDirectory { home in
      for directory in [
        "/.local", "/.local/bin", "/.config", "/.config/systemd",
        "/.config/systemd/user", "/run", "/.local/share", "/.local/share/man",
        "/.local/share/man/man1",
      ] {
        mkdir(home + directory, 0o700)
      }
      // verify checks that ExecStart is executable: the built binary, or any program.
      let built = Binary.path
      let binary = access(built, X_OK) == 0 ? built : "/bin/true"
      #expect(symlink(binary, home + "/.local/bin/pulsebar") == 0)
      let units = ["pulsebar.service", "pulsebar.socket", "pulsebar-overlay.service"]
      for unit in units {
        try copyFile(PackageRoot.path + "/systemd/" + unit, home + "/.config/systemd/user/" + unit)
      }
      try copyFile(
        PackageRoot.path + "/man/pulsebar.1", home + "/.local/share/man/man1/pulsebar.1")
      // `--user` needs a runtime directory; as root in a container there is no user manager,
      // but verify only loads the units, so a private XDG_RUNTIME_DIR is enough.
      let child = try ChildProcess(
        "systemd-analyze",
        ["--user", "verify"] + units.map { home + "/.config/systemd/user/" + $0 },
        environment: [
          "HOME": home, "XDG_RUNTIME_DIR": home + "/run", "XDG_CONFIG_HOME": home + "/.config",
          "MANPATH": home + "/.local/share/man",
        ])
      let status = try child.waitForExit(timeout: 30)
      #expect(status == 0, "systemd-analyze: \(child.standardError)")
      #expect(child.standardError.isEmpty, "warnings: \(child.standardError)")
    }
  }

  /// The service's sandbox: `systemd-analyze security` rates its exposure at 2.5 or below
  /// (Debian's own pipewire-pulse.service sets less), and the keys the contract names are there.
  /// The overlay's unit (pulsebar-overlay.service) is held to the same, with AF_INET added for
  /// its loopback port.
  @Test(arguments: ["pulsebar.service", "pulsebar-overlay.service"])
  func serviceIsHardened(_ unit: String) throws {
    try #require(access("/usr/bin/systemd-analyze", X_OK) == 0, "systemd-analyze is missing")
    let service = try readTextFile(PackageRoot.path + "/systemd/" + unit)
    let families = unit == "pulsebar.service" ? "AF_UNIX" : "AF_UNIX AF_INET"
    for line in [
      "UMask=0077", "NoNewPrivileges=yes", "LockPersonality=yes", "MemoryDenyWriteExecute=yes",
      "RestrictNamespaces=yes", "SystemCallArchitectures=native",
      "SystemCallFilter=@system-service", "RestrictAddressFamilies=" + families,
      "RestartPreventExitStatus=2",
    ] {
      #expect(service.split(separator: "\n").contains(Substring(line)), "missing \(line)")
    }
    try withTemporaryDirectory { home in
      for directory in ["/.config", "/.config/systemd", "/.config/systemd/user", "/run"] {
        mkdir(home + directory, 0o700)
      }
      try copyFile(PackageRoot.path + "/systemd/" + unit, home + "/.config/systemd/user/" + unit)
      let child = try ChildProcess(
        "systemd-analyze", ["security", "--user", "--offline=true", unit],
        environment: [
          "HOME": home, "XDG_RUNTIME_DIR": home + "/run", "XDG_CONFIG_HOME": home + "/.config",
        ])
      var lines: [String] = []
      while let line = child.readLine(timeout: 30) { lines.append(line) }
      _ = try child.waitForExit(timeout: 30)
      // "→ Overall exposure level for pulsebar.service: 1.6 OK 🙂"
      let verdict = try #require(
        lines.first { $0.contains("Overall exposure level") }, "\(child.standardError)")
      let words = verdict.split(separator: " ")
      let exposure = try #require(words.compactMap { Double($0) }.first, "\(verdict)")
      #expect(exposure <= 2.5, "\(verdict)")
    }
  }

  @Test func unitsSayWhatTheContractSays() throws {
    let service = try readTextFile(PackageRoot.path + "/systemd/pulsebar.service")
    for line in [
      "Type=notify", "ExecStart=%h/.local/bin/pulsebar run --no-stdout --socket",
      "Restart=on-failure", "WatchdogSec=10",
      "After=pipewire-pulse.service pulseaudio.service", "WantedBy=default.target",
      "Documentation=man:pulsebar(1)",
    ] {
      #expect(service.split(separator: "\n").contains(Substring(line)), "missing \(line)")
    }
    let socket = try readTextFile(PackageRoot.path + "/systemd/pulsebar.socket")
    for line in ["ListenStream=%t/pulsebar.sock", "SocketMode=0600", "WantedBy=sockets.target"] {
      #expect(socket.split(separator: "\n").contains(Substring(line)), "missing \(line)")
    }
  }
}

/// The package's root directory, found from this file's path.
enum PackageRoot {
  static let path: String = {
    var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    components.removeLast(3)  // Tests/PulseBarDaemonTests/<file>
    return components.joined(separator: "/")
  }()
}

/// A file's contents as UTF-8 text.
func readTextFile(_ path: String) throws(Errno) -> String {
  let raw = open(path, O_RDONLY | O_CLOEXEC)
  guard raw >= 0 else { throw Errno.current }
  let descriptor = FileDescriptor(rawValue: raw)
  defer { descriptor.closeQuietly() }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = chunk.withUnsafeMutableBytes { buffer in
      valueOrErrno(retryOnInterrupt: true) { read(raw, buffer.baseAddress, buffer.count) }
    }
    let length = try count.get()
    if length == 0 { break }
    bytes.append(contentsOf: chunk[..<length])
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// Copies a text file.
func copyFile(_ source: String, _ destination: String) throws {
  try writeTextFile(destination, try readTextFile(source))
}

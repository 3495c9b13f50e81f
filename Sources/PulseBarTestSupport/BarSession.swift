import Glibc

/// What the real-bar tests share: a directory for one bar's session (its runtime directory,
/// configs and logs), owned by the user the bar runs as, and a fontconfig file that makes
/// `monospace` one family (and installs the shipped CJK rules, ``cjkFontRules``).
///
/// sway refuses to run as root, so when the tests run as root the bar's processes run as an
/// unprivileged user, `pulsebar-bars` (created with `useradd` the first time), through
/// `setpriv`; otherwise as the current user. Confined to its creator.
package final class BarSession {
  /// The user a bar runs as when the tests run as root.
  package static let userName = "pulsebar-bars"
  /// The shipped fontconfig file that draws CJK at two cells where a bar asks for the
  /// `pulsebar` family (docs/WIDTHS.md); every session installs it, as a user would.
  package static let cjkFontRules =
    String(#filePath.dropLast("Sources/PulseBarTestSupport/BarSession.swift".count))
    + "config/examples/fontconfig-cjk.conf"
  /// The session's directory: `XDG_RUNTIME_DIR`, `HOME`, configs and logs.
  package let directory: String
  /// `setpriv …` in front of a command that runs as the bar's user; empty when not root.
  package let asUser: [String]
  /// The fontconfig file naming `family` as `monospace`.
  package let fontConfig: String

  /// A fresh session whose `monospace` is `family` ("DejaVu Sans Mono", "Noto Sans Mono").
  package init(monospace family: String) throws(SpawnError) {
    directory = try ServerGuard.makeTemporaryDirectory("pulsebar-bar")
    if getuid() == 0 {
      let user = try Self.unprivilegedUser()
      asUser = [
        "setpriv", "--reuid=\(user.uid)", "--regid=\(user.gid)", "--init-groups", "--",
      ]
      chown(directory, user.uid, user.gid)
    } else {
      asUser = []
    }
    chmod(directory, 0o700)
    fontConfig = directory + "/fonts.conf"
    // The alias comes first, so `family` goes before what Debian's 60-latin.conf prefers.
    try write(
      fontConfig,
      """
      <?xml version="1.0"?>
      <!DOCTYPE fontconfig SYSTEM "fonts.dtd">
      <fontconfig>
        <alias binding="strong">
          <family>monospace</family>
          <prefer><family>\(family)</family></prefer>
        </alias>
        <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
        <include ignore_missing="no">\(Self.cjkFontRules)</include>
        <cachedir>\(directory)/fontconfig-cache</cachedir>
      </fontconfig>
      """)
  }

  deinit {
    // Leave no session behind (logs are read before this).
    _ = try? ChildProcess("rm", ["-rf", directory]).waitForExit(timeout: 30)
  }

  /// The environment of every process of the session.
  package var environment: [String: String] {
    [
      "HOME": directory, "XDG_RUNTIME_DIR": directory, "XDG_CONFIG_HOME": directory + "/config",
      "XDG_CACHE_HOME": directory + "/cache", "FONTCONFIG_FILE": fontConfig,
    ]
  }

  /// Writes `text` to `path`, owned by the session's user.
  package func write(_ path: String, _ text: String) throws(SpawnError) {
    try PrivatePulseServer.writeFile(path, text)
    if getuid() == 0, let user = try? Self.unprivilegedUser() {
      chown(path, user.uid, user.gid)
    }
  }

  /// Starts `command` as the session's user, with the session's environment plus `extra`.
  package func spawn(_ command: [String], environment extra: [String: String] = [:])
    throws(SpawnError) -> ChildProcess
  {
    let full = asUser + command
    return try ChildProcess(
      full[0], Array(full.dropFirst()), environment: environment.merging(extra) { $1 })
  }

  /// Makes `path` (a private server's directory) reachable by the session's user.
  package func share(_ path: String) {
    if getuid() == 0 { chmod(path, 0o755) }
  }

  /// The `pulsebar-bars` user's uid and gid, created when missing.
  static func unprivilegedUser() throws(SpawnError) -> (uid: uid_t, gid: gid_t) {
    if let entry = getpwnam(userName) { return (entry.pointee.pw_uid, entry.pointee.pw_gid) }
    let add = try ChildProcess(
      "useradd",
      ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", userName])
    let status = try add.waitForExit(timeout: 60)
    guard let entry = getpwnam(userName) else {
      throw SpawnError(message: "useradd \(userName) exited \(status): \(add.standardError)")
    }
    return (entry.pointee.pw_uid, entry.pointee.pw_gid)
  }

  /// The lines of the file at `path` (a bar's log), or none.
  package static func lines(of path: String) -> [String] {
    guard let file = fopen(path, "r") else { return [] }
    defer { fclose(file) }
    var text: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = fread(&buffer, 1, buffer.count, file)
      if count <= 0 { break }
      text.append(contentsOf: buffer[..<count])
    }
    return String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// Whether `program` is on PATH.
  package static func installed(_ program: String) -> Bool {
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
  }
}

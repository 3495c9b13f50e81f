/// What a socket path (`socket.path`, `--socket PATH`) must be: absolute, and short enough for a
/// Unix socket address (`sun_path` holds 108 bytes with its NUL).
///
/// A relative path would be found from each process's own working directory: the daemon under
/// systemd binds in `/`, a bar's `listen` looks in the bar's, and they never meet. So it is an
/// error, not resolved against anything; empty means `$XDG_RUNTIME_DIR/pulsebar.sock`.
package enum SocketPathRule {
  /// The longest path a Unix socket address holds, in bytes.
  package static let maximumBytes = 107

  /// Why `path` cannot be a socket path, or `nil` when it can (empty: the default).
  package static func problem(_ path: String) -> String? {
    guard !path.isEmpty else { return nil }
    guard path.hasPrefix("/") else {
      return
        "expected an absolute path (or nothing, for $XDG_RUNTIME_DIR/pulsebar.sock), got '\(path)': a relative one is found from each process's own directory"
    }
    let bytes = path.utf8.count
    guard bytes <= maximumBytes else {
      return
        "the path is \(bytes) bytes; a Unix socket address holds at most \(maximumBytes): use a shorter one"
    }
    return nil
  }
}

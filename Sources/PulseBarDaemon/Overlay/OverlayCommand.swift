import PulseBarCore
import PulseBarSystem

/// `pulsebar overlay`: serves the overlay page (overlay/index.html, built in) and the scene of
/// a running daemon as Server-Sent Events, on `http://127.0.0.1:7455/` unless `--port` and
/// `--listen` say otherwise, for OBS browser sources and any browser.
///
/// A client of the daemon's socket as `pulsebar listen` is (each page's event stream is a
/// socket connection of its own, ``OverlayStream``): the daemon keeps to its Unix sockets.
/// It exits 0 on SIGTERM or SIGINT, 1 when it cannot serve (the port taken, libmicrohttpd
/// missing), after one line saying why.
package enum OverlayCommand {
  package static func run(_ options: OverlayOptions) -> Int32 {
    // Before libmicrohttpd starts its threads: they inherit the blocked signals.
    guard let signals = SignalReceiver.blockingDaemonSignals(command: "pulsebar overlay") else {
      return 1
    }
    let path = UnixSocket.defaultPath(configured: options.socketPath ?? configuredSocketPath())
    if let warning = exposureWarning(address: options.address) { Console.error(warning) }
    let service = OverlayService(
      hosts: OverlayHosts(port: options.port, address: options.address), socketPath: path)
    let server: OverlayServer
    do {
      server = try OverlayServer(service: service, address: options.address, port: options.port)
    } catch {
      Console.error("pulsebar overlay: \(error)\n")
      return 1
    }
    Console.error(
      "pulsebar overlay: http://\(options.address):\(options.port)/ (the daemon at \(path))\n")
    while true {
      signals.descriptor.wait(for: .readable, timeoutMilliseconds: -1)
      if case .terminate = signals.poll() { break }
    }
    server.stop()
    return 0
  }

  /// The warning for serving on `address` when it is not loopback (127.0.0.0/8), else `nil`.
  package static func exposureWarning(address: String) -> String? {
    guard !address.hasPrefix("127.") else { return nil }
    return
      "pulsebar overlay: warning: serving on \(address), not loopback: whoever reaches it sees what you play\n"
  }

  /// The `[socket] path` of the user's config, or "" (the default) when it has none or cannot
  /// be read (said on stderr).
  private static func configuredSocketPath() -> String {
    let file = ConfigLoading.defaultPath()
    do throws(ConfigError) {
      guard let text = try ConfigLoading.readFile(file, required: false) else { return "" }
      return try ListenConfig.parse(text, file: file).configuration.socketPath
    } catch {
      Console.error("pulsebar overlay: \(error); using the default socket\n")
      return ""
    }
  }
}

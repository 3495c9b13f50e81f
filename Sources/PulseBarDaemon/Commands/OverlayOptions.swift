/// Options of `pulsebar overlay`.
package struct OverlayOptions: Equatable {
  /// The port served on loopback: 7455 unless `--port` says otherwise.
  package static let defaultPort: UInt16 = 7455
  /// Where it listens unless `--listen` names another address.
  package static let loopback = "127.0.0.1"

  package var socketPath: String?
  package var port = defaultPort
  /// `--listen ADDRESS`: an IPv4 address; one that is not loopback is served with a warning.
  package var address = loopback
}

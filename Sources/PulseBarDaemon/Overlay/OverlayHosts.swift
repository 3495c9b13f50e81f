/// The `Host` headers the overlay accepts: the loopback names with its port
/// (`127.0.0.1:PORT`, `localhost:PORT`), and the address it was bound to with `--listen`.
/// Anything else is a page that reached the port under another name (DNS rebinding) and is
/// refused.
package struct OverlayHosts: Equatable, Sendable {
  package let port: UInt16
  /// The names accepted, lowercased.
  private let names: [String]

  package init(port: UInt16, address: String) {
    self.port = port
    var names = ["127.0.0.1", "localhost"]
    if !names.contains(address) { names.append(address.lowercased()) }
    self.names = names
  }

  /// Whether `host` (a `Host` header) names this overlay; the port may go unsaid only for 80.
  package func accepts(_ host: String) -> Bool {
    guard host.utf8.count <= 64 else { return false }
    let lowered = host.lowercased()
    let name: Substring
    if let colon = lowered.lastIndex(of: ":") {
      guard lowered[lowered.index(after: colon)...] == "\(port)" else { return false }
      name = lowered[..<colon]
    } else {
      guard port == 80 else { return false }
      name = lowered[...]
    }
    return names.contains { $0 == name }
  }
}

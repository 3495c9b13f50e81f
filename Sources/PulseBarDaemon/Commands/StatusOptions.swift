import PulseBarCore
import PulseBarSystem

/// Options of `pulsebar status`.
package struct StatusOptions: Equatable {
  /// `--json`: one json object instead of lines for people.
  package var json = false
  /// `--socket PATH`; `nil`: the config's `socket.path`, else the usual one.
  package var socketPath: String?

  package init(json: Bool = false, socketPath: String? = nil) {
    self.json = json
    self.socketPath = socketPath
  }
}

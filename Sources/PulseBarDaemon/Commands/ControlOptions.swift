import PulseBarCore
import PulseBarPlayers
import PulseBarSystem

/// Options of `pulsebar ctl`.
package struct ControlOptions: Equatable {
  /// The action with its operand, read and bounded.
  package var request: PlayerControl.Request
  /// `--player NAME`: that player rather than the active one.
  package var player: String?

  package init(request: PlayerControl.Request = .call(.playPause), player: String? = nil) {
    self.request = request
    self.player = player
  }

  /// An action without an operand.
  package init(action: PlayerControl.Action, player: String? = nil) {
    self.init(request: .call(action), player: player)
  }
}

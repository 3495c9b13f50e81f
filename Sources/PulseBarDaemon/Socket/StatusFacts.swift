import Glibc
import PulseBarCore
import PulseBarPlayers
import PulseBarSystem

/// What the status tells beyond the frame, given by the daemon at start.
package struct StatusFacts: Sendable {
  /// The config file the daemon reads (and rereads on a reload).
  package var configPath = ""
  /// Every MPRIS player shown, when the daemon follows them.
  package var playerRoster: PlayerRoster?
  /// How the last reload ended; `nil` before the first.
  package var lastReload: ReloadOutcome?

  package init(configPath: String = "", playerRoster: PlayerRoster? = nil) {
    self.configPath = configPath
    self.playerRoster = playerRoster
  }
}

import PulseBarCore
import PulseBarSystem

/// One player as `pulsebar status` lists it: its name after `org.mpris.MediaPlayer2.` and
/// what it says it does. Never its track: a socket client learns the active player's from the
/// frames, and no other's.
package struct PlayerSummary: Sendable, Equatable {
  package var name: String
  package var status: PlayerStatus

  package init(name: String, status: PlayerStatus) {
    self.name = name
    self.status = status
  }
}

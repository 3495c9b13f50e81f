import PulseBarCore
import PulseBarPlayers
import PulseBarSystem

/// `pulsebar ctl ACTION [VALUE] [--player NAME]` (ACTION: play-pause, play, pause, next,
/// previous, volume LEVEL, seek SECONDS, position TIME):
/// controls the active MPRIS player; parsed from the option table like every command. Exit 0 when the player took the call; 1 and one line when there is none (or no
/// session bus).
package enum ControlCommand {
  /// The actions, as the operand spells them.
  package static let actionNames = PlayerControl.Action.allCases.map(\.rawValue)

  /// `players.ignore` and `players.prefer` come from the user's config; a config that does not
  /// load is one line on stderr, and the click still reaches a player (with no preference).
  package static func run(_ options: ControlOptions) -> Int32 {
    var preference = PlayerPreference()
    do {
      preference = try ConfigLoading.load(path: nil).players
    } catch {
      Console.error("pulsebar ctl: \(error); players.ignore and players.prefer are not applied\n")
    }
    do {
      _ = try PlayerControl.perform(options.request, player: options.player, preference: preference)
      return 0
    } catch {
      Console.error("pulsebar: \(error)\n")
      return 1
    }
  }
}

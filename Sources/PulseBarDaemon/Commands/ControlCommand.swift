import PulseBarCore
import PulseBarPlayers
import PulseBarSystem

/// Options of `pulsebar ctl`.
package struct ControlOptions: Equatable {
  package var action: PlayerControl.Action
  /// `--player NAME`: that player rather than the active one.
  package var player: String?
}

/// `pulsebar ctl play-pause|play|pause|next|previous [--player NAME]`: controls the active MPRIS
/// player. Exit 0 when the player took the call; 1 and one line when there is none (or no
/// session bus).
package enum ControlCommand {
  package static let usage =
    "pulsebar ctl play-pause|play|pause|next|previous [--player NAME]"

  /// Parses the arguments after `ctl`.
  package static func parse(_ arguments: ArraySlice<String>) throws(UsageError) -> ControlOptions {
    var action: PlayerControl.Action?
    var player: String?
    var remaining = arguments
    while let argument = remaining.popFirst() {
      if argument == "--player" || argument.hasPrefix("--player=") {
        let value =
          argument == "--player" ? remaining.popFirst() : String(argument.dropFirst(9))
        guard let value, !value.isEmpty else { throw UsageError("--player needs a NAME") }
        player = value
      } else if let parsed = PlayerControl.Action(rawValue: argument), action == nil {
        action = parsed
      } else {
        throw UsageError("ctl: unexpected '\(argument)' (usage: \(usage))")
      }
    }
    guard let action else { throw UsageError("ctl needs an action (usage: \(usage))") }
    return ControlOptions(action: action, player: player)
  }

  package static func run(_ options: ControlOptions) -> Int32 {
    do {
      _ = try PlayerControl.perform(options.action, player: options.player)
      return 0
    } catch {
      Console.error("pulsebar: \(error)\n")
      return 1
    }
  }
}

/// Who the line names beside the state it shows: one decision, so a paused player's title
/// never sits beside sound from another program.
///
/// The published state (``PlaybackStateMachine``) already weighs the active player's word
/// against the audio: a player that says Paused holds the state at `paused`, until sound still
/// comes after ``PlaybackStateMachine/pauseTail`` (a notification, a program without MPRIS, or
/// a player `players.ignore` leaves out), when the audio decides and the state may be
/// `playing`. The player's fields (`{player}`, `{title}`, `{artist}`, `{album}`, `{position}`,
/// `{length}`, `{progress}`, json's and the tooltip's player keys) follow from that state:
///
/// | active player says | state shown | player fields |
/// | --- | --- | --- |
/// | Playing | playing, paused (a silent player) | shown |
/// | Paused or Stopped | paused, stopped | shown (what is paused) |
/// | Paused or Stopped | playing (another program's sound) | left out: the output plays |
/// | no player | any | none |
package enum PlayerAttribution {
  /// Whether the active player's fields stand beside `state`.
  package static func showsPlayer(_ player: PlayerStatus?, beside state: PlaybackState) -> Bool {
    guard let player else { return false }
    return player == .playing || state != .playing
  }
}

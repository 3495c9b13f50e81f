/// What an MPRIS player says about its playback (`PlaybackStatus`).
package enum PlayerStatus: String, Sendable, CaseIterable {
  case playing = "Playing"
  case paused = "Paused"
  case stopped = "Stopped"
}

/// Whether music is playing, as the scene and every output format report it.
package enum PlaybackState: String, Sendable, CaseIterable {
  case playing
  case paused
  case stopped
}

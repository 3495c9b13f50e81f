/// When the text line hides: `output.hide_when`.
package enum HideWhen: String, Sendable, CaseIterable {
  /// Always shown.
  case never
  /// Hidden once playback has been stopped for `output.hide_after` seconds.
  case stopped
  /// Hidden once playback has been paused or stopped for `output.hide_after` seconds.
  case notPlaying = "not_playing"
}

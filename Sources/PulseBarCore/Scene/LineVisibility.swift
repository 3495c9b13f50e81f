/// Decides, frame by frame, whether the text line (and waybar's `text`) is hidden:
/// `output.hide_when` and `output.hide_after`.
///
/// Hidden once the rule's state has held for `hide_after` seconds; shown again on the first
/// frame with sound, or when the state no longer matches the rule. Pure, with injected time
/// (the pipeline's). While the deadline is pending the engine must keep producing frames
/// (``isPending``), or the line would never hide: nothing else wakes a daemon whose music
/// stopped once the morph has settled.
package struct LineVisibility: Sendable, Equatable {
  package let rule: HideWhen
  /// Seconds the rule's state must hold.
  package let delay: Double
  package private(set) var isHidden = false
  /// When the rule's state began holding, while it holds.
  private var since: Double?

  package init(rule: HideWhen, after delay: Double) {
    self.rule = rule
    self.delay = max(0, delay)
  }

  /// The frame at `time` shows `state`; `sound` is true when it had sound above the noise floor.
  package mutating func advance(to time: Double, state: PlaybackState, sound: Bool) {
    let matches =
      switch rule {
      case .never: false
      case .stopped: state == .stopped
      case .notPlaying: state != .playing
      }
    guard matches && !sound else {
      since = nil
      isHidden = false
      return
    }
    let start = since ?? time
    since = start
    if time - start >= delay - 1e-9 { isHidden = true }
  }

  /// True while the line is due to hide but has not yet: frames must keep coming until then.
  package var isPending: Bool { since != nil && !isHidden }

  /// When the line hides (the frame time it waits for) while ``isPending``, else `nil`: an
  /// engine may sleep until then rather than tick every frame.
  package var deadline: Double? {
    guard let since, !isHidden else { return nil }
    return since + delay
  }
}

/// The animated picture every format draws: playback state, play/pause morph,
/// bubbles and the blend between live bars and resting bars.
///
/// A value type driven by audio time (`advance(to:…)`), never the wall clock, so tests
/// step it exactly. Nothing in `advance` or `composeBars` allocates.
package struct Scene: Sendable {
  private var machine: PlaybackStateMachine
  private var morphAnimation: EasedValue
  private var restAnimation: EasedValue
  private var bubbleSystem: BubbleSystem
  private let restHeights: [Float]
  /// Audio time of the last ``advance(to:activity:signalPresent:onset:)``.
  package private(set) var time: Double = 0

  package init(configuration: Configuration) {
    machine = PlaybackStateMachine(
      silenceTimeout: configuration.silenceTimeout, debounce: configuration.stateDebounce)
    morphAnimation = EasedValue(value: 0, duration: configuration.morphDuration)
    restAnimation = EasedValue(value: 1, duration: configuration.morphDuration)
    bubbleSystem = BubbleSystem(configuration: configuration)
    restHeights = configuration.restHeights
  }

  /// `playing`, `paused` or `stopped` (see ``PlaybackStateMachine``).
  package var state: PlaybackState { machine.state }
  /// 0 = pause bars, 1 = play triangle.
  package var morph: Float { morphAnimation.value }
  /// Live bubbles, oldest first.
  package var bubbles: [Bubble] { bubbleSystem.bubbles }
  /// 0 = bars follow the analyser, 1 = bars stand at the rest heights.
  package var restBlend: Float { restAnimation.value }

  /// Steps the scene to audio time `time` (seconds since start).
  ///
  /// `activity` comes from the capture side, `signalPresent` is true when the frame's
  /// peak reached the noise floor, `onset` when the analyser saw a peak (it spawns a
  /// bubble while playing). The rest heights fade out over the morph duration when
  /// `playing` starts and back in when it ends (see ``composeBars(live:into:)``).
  package mutating func advance(
    to time: Double, activity: StreamActivity, signalPresent: Bool, onset: Bool
  ) {
    self.time = time
    machine.advance(to: time, activity: activity, signalPresent: signalPresent)
    let playing = machine.state == .playing
    morphAnimation.retarget(playing ? 1 : 0, at: time)
    morphAnimation.advance(to: time)
    restAnimation.retarget(playing ? 0 : 1, at: time)
    restAnimation.advance(to: time)
    bubbleSystem.advance(to: time, spawn: onset && playing)
  }

  /// True while something still moves without new audio (morph, bubbles, bars settling), or
  /// a playback state waits out its debounce (it will change the picture when it lands).
  package var isAnimating: Bool {
    morphAnimation.isMoving || restAnimation.isMoving || !bubbleSystem.bubbles.isEmpty
      || machine.isSettling
  }

  /// The seed's two quads for morph value `value` in a unit box (x right, y down).
  package static func morphShape(_ value: Float) -> MorphShape {
    MorphShape(value: value)
  }

  /// The two quads for the current morph value in a unit box.
  package var morphShape: MorphShape { MorphShape(value: morph) }

  /// Writes the bars to draw: live heights crossfaded with the rest heights (repeated to
  /// the bar count) by ``restBlend``. Bars past the end of `live` count as 0.
  ///
  /// The crossfade runs over the morph duration both ways, and never delays sound:
  /// - toward live (playing): `max(live, crossfade)`. A live bar above the fading
  ///   rest picture shows at once, at its full height, on the frame sound arrives;
  ///   the rest heights only fade out beneath and between the live bars.
  /// - toward rest (paused or stopped): the plain crossfade, so the live bars
  ///   (frozen at their last heights when audio stops arriving) fade out as the rest
  ///   heights fade in, and the still frame is exactly the rest heights.
  ///
  /// The two agree whenever the blend is 0 or 1; only a state flip in mid-fade
  /// switches rule while both still show.
  package func composeBars(
    live: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>
  ) {
    let blend = restBlend
    let towardLive = restAnimation.target == 0
    for index in 0..<output.count {
      let rest = restHeights.isEmpty ? 0 : restHeights[index % restHeights.count]
      let height = index < live.count ? live[index] : 0
      let crossfade = height * (1 - blend) + rest * blend
      output[index] = towardLive ? max(height, crossfade) : crossfade
    }
  }
}

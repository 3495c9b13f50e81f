/// The animated picture every format draws: playback state, play/pause morph,
/// bubbles and the blend between live bars and resting bars.
///
/// A value type driven by audio time (`advance(to:…)`), never the wall clock, so tests
/// step it exactly. Nothing in `advance` or `composeBars` allocates.
public struct Scene: Sendable {
  /// Seconds the bars take to settle to the rest heights when playback ends.
  public static let restSettleDuration = 0.3

  private var machine: PlaybackStateMachine
  private var morphAnimation: EasedValue
  private var restAnimation: EasedValue
  private var bubbleSystem: BubbleSystem
  private let restHeights: [Float]
  /// Audio time of the last ``advance(to:activity:signalPresent:onset:)``.
  public private(set) var time: Double = 0

  public init(configuration: Configuration) {
    machine = PlaybackStateMachine(
      silenceTimeout: configuration.silenceTimeout, debounce: configuration.stateDebounce)
    morphAnimation = EasedValue(value: 0, duration: configuration.morphDuration)
    restAnimation = EasedValue(value: 1, duration: Self.restSettleDuration)
    bubbleSystem = BubbleSystem(configuration: configuration)
    restHeights = configuration.restHeights
  }

  /// `playing`, `paused` or `stopped` (see ``PlaybackStateMachine``).
  public var state: PlaybackState { machine.state }
  /// 0 = pause bars, 1 = play triangle.
  public var morph: Float { morphAnimation.value }
  /// Live bubbles, oldest first.
  public var bubbles: [Bubble] { bubbleSystem.bubbles }
  /// 0 = bars follow the analyser, 1 = bars stand at the rest heights.
  public var restBlend: Float { restAnimation.value }

  /// Steps the scene to audio time `time` (seconds since start).
  ///
  /// `activity` comes from the capture side, `signalPresent` is true when the frame
  /// held more than digital silence, `onset` when the analyser saw a peak (it spawns a
  /// bubble while playing). Turning `playing` switches the bars to live at once (no
  /// ease, so onsets show on the first frame); leaving it eases them to rest.
  public mutating func advance(
    to time: Double, activity: StreamActivity, signalPresent: Bool, onset: Bool
  ) {
    self.time = time
    machine.advance(to: time, activity: activity, signalPresent: signalPresent)
    let playing = machine.state == .playing
    morphAnimation.retarget(playing ? 1 : 0, at: time)
    morphAnimation.advance(to: time)
    if playing {
      restAnimation.jump(to: 0)
    } else {
      restAnimation.retarget(1, at: time)
      restAnimation.advance(to: time)
    }
    bubbleSystem.advance(to: time, spawn: onset && playing)
  }

  /// True while something still moves without new audio (morph, bubbles, bars settling), or
  /// a playback state waits out its debounce (it will change the picture when it lands).
  public var isAnimating: Bool {
    morphAnimation.isMoving || restAnimation.isMoving || !bubbleSystem.bubbles.isEmpty
      || machine.isSettling
  }

  /// The seed's two quads for morph value `value` in a unit box (x right, y down).
  public static func morphShape(_ value: Float) -> MorphShape {
    MorphShape(value: value)
  }

  /// The two quads for the current morph value in a unit box.
  public var morphShape: MorphShape { MorphShape(value: morph) }

  /// Writes the bars to draw: live heights blended toward the rest heights (repeated to
  /// the bar count). Bars past the end of `live` count as 0.
  public func composeBars(
    live: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>
  ) {
    let blend = restBlend
    for index in 0..<output.count {
      let rest = restHeights.isEmpty ? 0 : restHeights[index % restHeights.count]
      let height = index < live.count ? live[index] : 0
      output[index] = height * (1 - blend) + rest * blend
    }
  }
}

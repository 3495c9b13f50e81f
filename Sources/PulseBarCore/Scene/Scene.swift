/// A bubble alive in the scene, in units of `maxHeight` from its start point
/// (x right, y up), as every renderer reads it.
public struct Bubble: Sendable, Equatable {
  /// Unique per scene, increasing; lets a GUI track a bubble across frames.
  public var id: UInt64
  public var x: Float
  public var y: Float
  public var scale: Float
  public var alpha: Float
  /// Index into ``Configuration/bubbleGlyphs``.
  public var glyphIndex: Int
}

/// The animated picture every format draws: playback state, play/pause morph,
/// bubbles and the blend between live bars and resting bars.
///
/// Pure value type driven by audio time (`advance(to:…)`), never the wall clock.
/// PROVISIONAL: the scene issue replaces this file with the seeds' animations.
public struct Scene: Sendable {
  public private(set) var state: PlaybackState = .stopped
  /// 0 = pause bars, 1 = play triangle.
  public private(set) var morph: Float = 0
  /// Live bubbles, oldest first.
  public private(set) var bubbles: [Bubble] = []
  /// 0 = bars follow the analyser, 1 = bars stand at the rest heights.
  public private(set) var restBlend: Float = 1
  private let restHeights: [Float]

  public init(configuration: Configuration) {
    restHeights = configuration.restHeights
    bubbles.reserveCapacity(configuration.bubbleMax)
  }

  /// Steps the scene to audio time `time` (seconds since start).
  public mutating func advance(
    to time: Double, activity: StreamActivity, signalPresent: Bool, onset: Bool
  ) {
    state =
      activity == .running && signalPresent ? .playing : (activity == .none ? .stopped : .paused)
    morph = state == .playing ? 1 : 0
    restBlend = state == .playing ? 0 : 1
  }

  /// True while something still moves without new audio (morph, bubbles, bars settling).
  public var isAnimating: Bool { false }

  /// Writes the bars to draw: live heights blended toward the rest heights.
  public func composeBars(
    live: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>
  ) {
    let blend = restBlend
    for index in 0..<output.count {
      let rest = restHeights.isEmpty ? 0 : restHeights[index % restHeights.count]
      output[index] = live[index] * (1 - blend) + rest * blend
    }
  }
}

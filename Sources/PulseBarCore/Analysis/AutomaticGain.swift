import Glibc

/// Automatic gain as a level follower, as audio AGCs work: fast attack, slow release,
/// a ceiling, and no growth during silence.
///
/// It watches the loudest smoothed bar level of each frame (before the gain) and
/// keeps `loudest × gain` in range:
/// - **Attack**, in proportion to the overshoot and on the same frame: if the
///   loudest bar would pass the top (1), the gain is cut so it lands at
///   ``target`` instead. Heights are drawn after the cut, so no bar is ever
///   clipped at the top, whatever the level jump (silence → music, −30 → 0 dB,
///   a quiet intro into a loud chorus).
/// - **Hold** between ``target`` and the top: a bar may use the whole range
///   without the gain hunting.
/// - **Release**: while the loudest bar is below ``target`` the gain grows by
///   ``releaseDecibelsPerSecond``, never past what puts the loudest bar at
///   ``target``. 6 dB/s: a passage 20 dB quieter (14 dB in heights, which follow
///   level^0.7) fills the bars again in about 2.3 s, while in a half-second gap
///   between beats the gain rises at most 3 dB, so loud passages keep their
///   dynamics. (9 dB/s pumped more with the beat; 3 dB/s left quiet passages small
///   for seconds.)
/// - **Silence** (the frame's peak below the noise floor): no growth at all.
/// - **Ceiling**: `0.1 / noise floor level`, so a sine at the noise floor never
///   draws more than a tenth of the height. The gain starts there, so the first
///   sound after start-up is fitted on its first frame.
struct AutomaticGain {
  /// Where the attack puts the loudest bar: below the top, so a louder hit still shows.
  static let target: Float = 0.9
  /// Release speed while the loudest bar is under ``target``.
  static let releaseDecibelsPerSecond: Float = 6
  /// The most a signal at the noise floor may draw.
  static let noiseFloorHeight: Float = 0.1

  /// Heights per unit of level.
  private(set) var gain: Float
  /// The gain's upper bound.
  let ceiling: Float
  /// Gain factor per non-silent frame of release.
  private var releaseStep: Float

  /// `noiseFloorLevel` is the level a sine at the noise floor reads (before the gain).
  init(fps: Int, noiseFloorLevel: Float) {
    ceiling = Self.noiseFloorHeight / noiseFloorLevel
    gain = ceiling
    releaseStep = powf(10, Self.releaseDecibelsPerSecond / 20 / Float(fps))
  }

  /// Frames now come `fps` times a second (the engine follows its consumers' rate): the
  /// release keeps its speed per second; the gain itself carries on.
  mutating func setFrameRate(_ fps: Int) {
    releaseStep = powf(10, Self.releaseDecibelsPerSecond / 20 / Float(fps))
  }

  /// Adjusts the gain for a frame whose loudest smoothed bar level is `loudest`.
  mutating func update(loudest: Float, silent: Bool) {
    let height = loudest * gain
    if height > 1 {
      gain = Self.target / loudest
    } else if !silent && height < Self.target {
      // Grow, but stop where the loudest bar reaches the target.
      let fitted = loudest > 0 ? Self.target / loudest : ceiling
      gain = min(gain * releaseStep, fitted, ceiling)
    }
  }
}

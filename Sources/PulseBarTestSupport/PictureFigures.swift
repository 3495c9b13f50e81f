/// What a run of bar frames looks like, in the figures the picture tests and
/// `pulsebar-bench picture` report: how long bars stay pinned at the top, how many
/// samples sit at the top or the floor, the mean height and the frame-to-frame motion.
///
/// Heights are 0...1 (cava's raw 0…1000 divided by 1000). A bar is **pinned** at
/// 0.99 or more (the top glyph, and raw 990 of 1000 and up) and **at the floor**
/// below 0.01 (raw under 10: nothing drawn).
package struct PictureFigures: Sendable {
  package static let pinnedLevel: Float = 0.99
  package static let floorLevel: Float = 0.01

  /// The longest time any one bar stayed pinned without a break, in seconds.
  package var longestPinnedSeconds = 0.0
  /// Share of bar samples pinned, 0...1.
  package var pinnedShare = 0.0
  /// Share of bar samples at the floor, 0...1.
  package var floorShare = 0.0
  /// Mean height over all bar samples.
  package var meanHeight = 0.0
  /// Mean absolute change of a bar from one frame to the next.
  package var motion = 0.0

  /// Figures over `frames` (each frame the same number of bars) at `fps` frames a second.
  package init(frames: [[Float]], fps: Double) {
    guard let bars = frames.first?.count, bars > 0 else { return }
    var runs = [Int](repeating: 0, count: bars)
    var longest = 0
    var pinned = 0
    var floor = 0
    var sum = 0.0
    var motionSum = 0.0
    for (index, frame) in frames.enumerated() {
      for bar in 0..<bars {
        let height = frame[bar]
        if height >= Self.pinnedLevel {
          pinned += 1
          runs[bar] += 1
          longest = max(longest, runs[bar])
        } else {
          runs[bar] = 0
        }
        if height < Self.floorLevel { floor += 1 }
        sum += Double(height)
        if index > 0 { motionSum += Double(abs(height - frames[index - 1][bar])) }
      }
    }
    let samples = Double(frames.count * bars)
    longestPinnedSeconds = Double(longest) / fps
    pinnedShare = Double(pinned) / samples
    floorShare = Double(floor) / samples
    meanHeight = sum / samples
    motion = frames.count > 1 ? motionSum / (Double(frames.count - 1) * Double(bars)) : 0
  }
}

/// The change filter every format shares: a frame's body is compared with the last one
/// written, and only a new one becomes a line (`\n`-terminated) to write.
///
/// A format writes the part of its line that tells frames apart into ``body`` (json leaves
/// out `seq` and `time`, which change every frame by definition; waybar leaves out
/// `percentage`, compared apart), offers it, and when it is new writes ``line`` around
/// ``written``. Buffers are swapped, never copied: no allocation per frame.
struct LineFilter {
  /// The line to write, valid after ``offer(percentage:)`` returned true and the format wrote it.
  var line = ByteLine(capacity: 4096)
  /// Where the format writes this frame's body.
  var body = ByteLine(capacity: 4096)
  /// The body last written.
  private(set) var written = ByteLine(capacity: 4096)
  private var hasWritten = false
  private var writtenPercentage = 0
  /// Lines written so far (json's `seq` of the last one).
  private(set) var sequence: UInt64 = 0

  /// A waybar line whose only change is `percentage`, by less than this many points, is not
  /// written: waybar redraws the module for every line, and a percentage-only line (30 % of
  /// them before) shows nothing new unless the module maps `percentage` to format icons,
  /// where 5 points is finer than any icon set.
  static let percentageStep = 5

  /// Forgets the last line, so the next one is written even if unchanged (a new consumer).
  mutating func forget() { hasWritten = false }

  /// Numbers lines on from `last` (a reload's new renderer): `seq` never steps back.
  mutating func continueSequence(after last: UInt64) { sequence = max(sequence, last) }

  /// True when ``body`` (with `percentage`, for waybar) makes a new line: it becomes
  /// ``written`` and ``line`` is cleared for the format to fill.
  mutating func offer(percentage: Int = 0) -> Bool {
    if hasWritten && body == written
      && abs(percentage - writtenPercentage) < Self.percentageStep
    {
      return false
    }
    swap(&body, &written)
    hasWritten = true
    writtenPercentage = percentage
    sequence += 1
    line.removeAll()
    return true
  }
}

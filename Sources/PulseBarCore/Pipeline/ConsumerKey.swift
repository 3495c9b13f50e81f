/// A consumer's wish: a line format at a bar count, at most `fps` lines per second.
package struct ConsumerKey: Hashable, Sendable {
  package var format: OutputFormat
  package var bars: Int
  /// Lines per second of audio at most; `nil` is every frame (the daemon's fps). Callers
  /// normalize a rate at or above the daemon's to `nil`, so the two share one renderer.
  package var fps: Int?

  package init(format: OutputFormat, bars: Int, fps: Int? = nil) {
    self.format = format
    self.bars = bars
    self.fps = fps
  }

  /// The rate consumers with `keys` need (``FramePipeline/wantedFrameRate``): the fastest
  /// one's (one without a rate of its own wants `maximum`), never above `maximum`.
  package static func frameRate(for keys: [ConsumerKey], maximum: Int) -> Int {
    guard !keys.isEmpty else { return maximum }
    return keys.reduce(1) { max($0, min($1.fps ?? maximum, maximum)) }
  }
}

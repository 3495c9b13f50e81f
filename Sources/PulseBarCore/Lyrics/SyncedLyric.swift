/// A synced lyric (LRC): its lines in time order, and the line to show at a position.
///
/// Made by ``LRCParser`` on the players' thread when the track changes, handed to the engine
/// inside ``NowPlaying``; a frame only looks a line up (a binary search, no allocation). Times
/// are whole milliseconds of the track with the file's `[offset:]` already applied, each
/// within 0…``LRCParser/maximumMilliseconds``, so nothing here can overflow.
package struct SyncedLyric: Sendable, Equatable {
  /// One timed line: shown from `milliseconds` until the next line's time. An empty text
  /// (a bare time tag) shows nothing: the field drops, as a track with no lyric.
  package struct Line: Sendable, Equatable {
    package var milliseconds: Int64
    package var text: String

    package init(milliseconds: Int64, text: String) {
      self.milliseconds = milliseconds
      self.text = text
    }
  }

  /// In time order; of two lines at the same time only the first in the file is kept (the
  /// second is usually a translation).
  package private(set) var lines: [Line]
  /// `[ar:]`, `[ti:]`, `[al:]`: what the file says it is for.
  package var artist: String?
  package var title: String?
  package var album: String?
  /// `[length:]` in seconds.
  package var length: Double?
  /// `[offset:]` in milliseconds (positive: every line earlier), already applied to ``lines``.
  package var offsetMilliseconds: Int64 = 0
  /// Lines the parser skipped: not a time tag, a header or blank (the `-v` line counts them).
  package var malformedLines = 0

  /// `lines` sorted by time (stable), with later lines at a time already taken dropped.
  package init(lines: [Line]) {
    var sorted = lines.enumerated().sorted {
      ($0.element.milliseconds, $0.offset) < ($1.element.milliseconds, $1.offset)
    }.map(\.element)
    var kept = 0
    for index in sorted.indices
    where kept == 0 || sorted[index].milliseconds != sorted[kept - 1].milliseconds {
      sorted[kept] = sorted[index]
      kept += 1
    }
    sorted.removeSubrange(kept...)
    self.lines = sorted
  }

  /// The index of the line shown at `seconds` into the track: the last line whose time has
  /// come, or `nil` before the first (and for a position that is not a number).
  package func lineIndex(at seconds: Double) -> Int? {
    let count = firstLine(after: seconds)
    return count > 0 ? count - 1 : nil
  }

  /// The text shown at `seconds`, or `nil` (before the first line, or a blank line).
  package func text(at seconds: Double) -> String? {
    guard let index = lineIndex(at: seconds), !lines[index].text.isEmpty else { return nil }
    return lines[index].text
  }

  /// When the shown line next changes after `seconds` (seconds into the track), or `nil`
  /// after the last line.
  package func nextChange(after seconds: Double) -> Double? {
    let next = firstLine(after: seconds)
    return next < lines.count ? Self.seconds(lines[next].milliseconds) : nil
  }

  /// A line's time in seconds.
  package static func seconds(_ milliseconds: Int64) -> Double { Double(milliseconds) / 1000 }

  /// The index of the first line whose time is after `seconds` (`lines.count` when none is):
  /// a binary search, so a frame costs O(log n) whatever the file.
  private func firstLine(after seconds: Double) -> Int {
    guard seconds == seconds else { return 0 }
    var low = 0
    var high = lines.count
    while low < high {
      let middle = low + (high - low) / 2
      if Self.seconds(lines[middle].milliseconds) <= seconds {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }
}

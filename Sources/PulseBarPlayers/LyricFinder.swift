import PulseBarCore
import PulseBarSystem

/// Finds the active track's synced lyric on the players' thread, so no file is read on the
/// engine's (and never while a frame waits): the engine gets it inside the ``NowPlaying`` it
/// is handed.
///
/// Sources in order (``LyricPaths``): the `.lrc` beside the track, `Artist - Title.lrc` in
/// `lyrics.directory`, then the player's `xesam:asText` when it holds LRC time tags. A file is
/// read only when it is a regular file of at most ``maximumBytes`` (``RegularFile``); invalid
/// UTF-8 becomes U+FFFD. The last track's answer is kept, so a pause or a seek reads nothing.
struct LyricFinder {
  /// What the lyric depends on: the track's URL, artist and title, and its `xesam:asText`.
  struct Track: Equatable {
    var url: String?
    var artist: String?
    var title: String?
    var text: String?
  }

  /// The most bytes of a lyric file (and of `xesam:asText`).
  static let maximumBytes = 1 << 20

  /// `lyrics.directory`, `~` expanded; `nil`: none.
  private(set) var directory: String?
  /// Where a reload posts a new ``directory`` (the engine's thread posts, this one takes).
  let reloads: Mailbox<String?>
  /// The last track asked for and its lyric.
  private var last: (track: Track, lyric: SyncedLyric?)?

  init(directory: String?, reloads: Mailbox<String?>) {
    self.directory = directory
    self.reloads = reloads
  }

  /// Takes a reloaded directory; true when it changed (the lyric is then looked for again).
  mutating func takeReload() -> Bool {
    guard let directory = reloads.take(), directory != self.directory else { return false }
    self.directory = directory
    last = nil
    return true
  }

  /// The lyric for `track` (`nil`: no player, or none found); `debug` gets the `-v` lines (a
  /// file refused, malformed lines skipped), once per track.
  mutating func lyric(for track: Track?, debug: (String) -> Void) -> SyncedLyric? {
    guard let track else { return nil }
    if let last, last.track == track { return last.lyric }
    let lyric = find(track, debug: debug)
    last = (track, lyric)
    return lyric
  }

  private func find(_ track: Track, debug: (String) -> Void) -> SyncedLyric? {
    let paths = LyricPaths.candidates(
      url: track.url, artist: track.artist, title: track.title, directory: directory)
    for path in paths {
      let bytes: [UInt8]
      do throws(RegularFile.Failure) {
        bytes = try RegularFile.read(path, maximumBytes: Self.maximumBytes)
      } catch .missing {
        continue
      } catch {
        debug("lyrics: \(path): \(error); not read")
        continue
      }
      guard let lyric = LRCParser.parse(String(decoding: bytes, as: UTF8.self)) else {
        debug("lyrics: \(path): no LRC time tags; not a synced lyric")
        continue
      }
      report(lyric, from: path, debug: debug)
      return lyric
    }
    if let text = track.text, let lyric = LRCParser.parse(text) {
      report(lyric, from: "the player's xesam:asText", debug: debug)
      return lyric
    }
    return nil
  }

  private func report(_ lyric: SyncedLyric, from source: String, debug: (String) -> Void) {
    let skipped = lyric.malformedLines
    debug(
      "lyrics: \(lyric.lines.count) lines from \(source)"
        + (skipped > 0 ? "; \(skipped) malformed line\(skipped == 1 ? "" : "s") skipped" : ""))
  }
}

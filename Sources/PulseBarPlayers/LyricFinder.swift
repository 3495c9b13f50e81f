import PulseBarCore
import PulseBarSystem

/// Finds the active track's synced lyric on the players' thread, so no file is read on the
/// engine's (and never while a frame waits): the engine gets it inside the ``NowPlaying`` it
/// is handed.
///
/// Sources in order (``LyricPaths``): the `.lrc` beside the track, `Artist - Title.lrc` in
/// `lyrics.directory`, then the player's `xesam:asText` when it holds LRC time tags. A file is
/// read only when it is a regular file of at most ``maximumBytes`` (``RegularFile``); invalid
/// UTF-8 becomes U+FFFD. The files are looked in once per track (its URL, artist and title: a
/// pause, a seek or a new `asText` reads nothing), and again only when the system refused a
/// read for a moment (``ReadRetry``). `asText` is parsed only when it changed, and within
/// ``parseBudget``: a player that sends a long text that differs in every message (one
/// parsed 24 times a second pinned a core) gets it parsed when the budget allows, the latest
/// text winning.
struct LyricFinder {
  /// What the lyric depends on: the track's URL, artist and title, and its `xesam:asText`.
  struct Track: Equatable {
    var url: String?
    var artist: String?
    var title: String?
    var text: String?

    /// The track without its text: what the files depend on.
    var place: Track { Track(url: url, artist: artist, title: title, text: nil) }
    /// The place as one string, for ``ReadRetry`` (D-Bus strings hold no NUL).
    var retryKey: String { "\(url ?? "")\u{0}\(artist ?? "")\u{0}\(title ?? "")" }
  }

  /// The most bytes of a lyric file (and of `xesam:asText`).
  static let maximumBytes = 1 << 20
  /// Bytes of `asText` parsed at most: ``maximumBytes`` at once, then 128 KB a second (about
  /// 1 % of a core; every line costs at least its line end, so lines are bounded too).
  static let parseBudget = CostBudget(burst: Double(maximumBytes), perSecond: Double(128 << 10))

  /// `lyrics.directory`, `~` expanded; `nil`: none.
  private(set) var directory: String?
  /// Where a reload posts a new ``directory`` (the engine's thread posts, this one takes).
  let reloads: Mailbox<String?>
  /// The last track's place and the lyric its files gave.
  private var files: (place: Track, lyric: SyncedLyric?)?
  /// The last `asText` parsed, for which track, and its lyric.
  private var parsed: (place: Track, text: String, lyric: SyncedLyric?)?
  /// What parsing `asText` may still cost.
  private var budget = parseBudget
  /// When a text that waits for the budget may be parsed.
  private var textDue: Double?
  /// A file read that failed for a moment, by track.
  private var retry = ReadRetry()

  init(directory: String?, reloads: Mailbox<String?>) {
    self.directory = directory
    self.reloads = reloads
  }

  /// Takes a reloaded directory; true when it changed (the lyric is then looked for again).
  mutating func takeReload() -> Bool {
    guard let directory = reloads.take(), directory != self.directory else { return false }
    self.directory = directory
    files = nil
    return true
  }

  /// When the finder wants to be asked again (a text's turn to be parsed, a read to retry).
  var nextDue: Double? { [textDue, retry.nextDue].compactMap { $0 }.min() }

  /// The lyric for `track` at `now` (`nil`: no player, or none found); `debug` gets the `-v`
  /// lines (a file refused, malformed lines skipped), once per track.
  mutating func lyric(for track: Track?, at now: Double, debug: (String) -> Void) -> SyncedLyric? {
    guard let track else {
      textDue = nil
      retry.settled()
      return nil
    }
    let place = track.place
    let found = lyricInFiles(of: place, at: now, debug: debug)
    if found != nil {
      textDue = nil
      return found
    }
    return lyric(fromText: track.text, of: place, at: now, debug: debug)
  }

  /// The lyric the files of `place` gave: looked for when the track changed or a read is due
  /// again, else the one kept.
  private mutating func lyricInFiles(of place: Track, at now: Double, debug: (String) -> Void)
    -> SyncedLyric?
  {
    var due = false
    if let next = retry.nextDue { due = now >= next }
    if let files, files.place == place, !due { return files.lyric }
    let result = find(place, debug: debug)
    files = (place, result.lyric)
    if result.transient { retry.failed(place.retryKey, at: now) } else { retry.settled() }
    return result.lyric
  }

  /// The lyric in the player's `asText`, parsed when it changed and the budget allows.
  private mutating func lyric(
    fromText text: String?, of place: Track, at now: Double, debug: (String) -> Void
  ) -> SyncedLyric? {
    textDue = nil
    guard let text, text.utf8.count <= Self.maximumBytes else { return nil }
    let kept = parsed.flatMap { $0.place == place ? $0 : nil }
    if kept?.text == text { return kept?.lyric }
    let cost = Double(text.utf8.count)
    guard budget.spend(cost, at: now) else {
      textDue = budget.due(for: cost, at: now)
      return kept?.lyric
    }
    let lyric = LRCParser.parse(text)
    if let lyric { report(lyric, from: "the player's xesam:asText", debug: debug) }
    parsed = (place, text, lyric)
    return lyric
  }

  /// The lyric in the track's files, and whether a read failed for a moment.
  private func find(_ track: Track, debug: (String) -> Void) -> (
    lyric: SyncedLyric?, transient: Bool
  ) {
    let paths = LyricPaths.candidates(
      url: track.url, artist: track.artist, title: track.title, directory: directory)
    var transient = false
    for path in paths {
      let bytes: [UInt8]
      do throws(RegularFile.Failure) {
        bytes = try RegularFile.read(path, maximumBytes: Self.maximumBytes)
      } catch .missing {
        continue
      } catch {
        debug("lyrics: \(path): \(error); " + (error.isTransient ? "tried again" : "not read"))
        transient = transient || error.isTransient
        continue
      }
      guard let lyric = LRCParser.parse(String(decoding: bytes, as: UTF8.self)) else {
        debug("lyrics: \(path): no LRC time tags; not a synced lyric")
        continue
      }
      report(lyric, from: path, debug: debug)
      return (lyric, false)
    }
    return (nil, transient)
  }

  private func report(_ lyric: SyncedLyric, from source: String, debug: (String) -> Void) {
    let skipped = lyric.malformedLines
    debug(
      "lyrics: \(lyric.lines.count) lines from \(source)"
        + (skipped > 0 ? "; \(skipped) malformed line\(skipped == 1 ? "" : "s") skipped" : ""))
  }
}

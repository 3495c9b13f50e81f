import PulseBarCore
import PulseBarSystem

/// Builds the active track's art colours (`colors.from_art`) on the players' thread, as
/// ``LyricFinder`` finds its lyric: no file is read or decoded on the engine's, and the engine
/// gets the ``ArtPalette`` inside the ``NowPlaying`` it is handed.
///
/// `mpris:artUrl` is untrusted: a `file://` path is read only when it is a regular file of at
/// most ``ArtSource/maximumImageBytes`` (``RegularFile``); a `data:` URI is decoded from
/// base64; `http(s)://` is not fetched. The cost is bounded whatever a player does: each
/// decode by its header (``ArtDecoder``), and at most one decode each ``decodeInterval``, the
/// latest URL winning (one asked for sooner waits, the colours shown meanwhile stay); the last
/// ``recentCount`` URLs' palettes (or failures) are kept, so art flipping between two covers
/// decodes nothing again. A read the system refused for a moment is tried again
/// (``ReadRetry``), never kept as the URL's answer.
struct ArtFinder {
  /// The shortest time between two decodes, in seconds.
  static let decodeInterval = 1.0
  /// URLs whose palettes are kept.
  static let recentCount = 4

  /// `colors.from_art` and `colors.background`.
  private(set) var settings: ArtSettings
  /// Where a reload posts new ``settings`` (the engine's thread posts, this one takes).
  let reloads: Mailbox<ArtSettings>
  /// The last URLs decoded and their palettes, oldest first.
  private var recent: [(url: String, palette: ArtPalette?)] = []
  /// The palette shown now (kept while a new URL waits for its turn to decode).
  private var shown: ArtPalette?
  /// When the last decode was.
  private var lastDecode = -Double.infinity
  /// Files read and decoded (data: URIs decoded) so far: what the pacing bounds.
  private(set) var decodes = 0
  /// A URL that waits for ``decodeInterval`` to pass.
  private var waiting: String?
  /// A read that failed for a moment, by URL.
  private var retry = ReadRetry()

  init(settings: ArtSettings, reloads: Mailbox<ArtSettings>) {
    self.settings = settings
    self.reloads = reloads
  }

  /// Takes reloaded settings; true when they changed (the palette is then built again).
  mutating func takeReload() -> Bool {
    guard let settings = reloads.take(), settings != self.settings else { return false }
    self.settings = settings
    recent = []
    return true
  }

  /// When the finder wants to be asked again (a waiting URL's turn, a read to retry).
  var nextDue: Double? {
    [waiting.map { _ in lastDecode + Self.decodeInterval }, retry.nextDue].compactMap { $0 }.min()
  }

  /// The palette for the art at `url` at `now` (`nil`: off, no art, or it failed: the
  /// configured colours stay); `debug` gets a `-v` line when art is refused, once per URL.
  mutating func palette(for url: String?, at now: Double, debug: (String) -> Void) -> ArtPalette? {
    guard settings.enabled, let url else {
      (shown, waiting) = (nil, nil)
      retry.settled()
      return nil
    }
    if let index = recent.firstIndex(where: { $0.url == url }) {
      (shown, waiting) = (recent[index].palette, nil)
      retry.settled()
      return shown
    }
    if retry.waits(url, at: now) { return shown }
    guard now >= lastDecode + Self.decodeInterval else {
      waiting = url
      return shown
    }
    waiting = nil
    lastDecode = now
    decodes += 1
    switch build(url, debug: debug) {
    case .transient:
      shown = nil
      retry.failed(url, at: now)
    case .answer(let palette):
      retry.settled()
      recent.append((url, palette))
      if recent.count > Self.recentCount { recent.removeFirst() }
      shown = palette
    }
    return shown
  }

  /// What reading and decoding a URL gave.
  private enum Outcome {
    /// A palette, or `nil` for art that cannot give one: the URL's answer.
    case answer(ArtPalette?)
    /// The system refused the read for a moment: to be tried again.
    case transient
  }

  private func build(_ url: String, debug: (String) -> Void) -> Outcome {
    let bytes: [UInt8]
    let name: String
    switch ArtSource.parse(url) {
    case .unsupported(let reason):
      debug("art: \(reason); the configured colours stay")
      return .answer(nil)
    case .bytes(let data):
      (bytes, name) = (data, "the data: URI")
    case .file(let path):
      name = path
      do throws(RegularFile.Failure) {
        bytes = try RegularFile.read(path, maximumBytes: ArtSource.maximumImageBytes)
      } catch {
        debug("art: \(path): \(error); " + (error.isTransient ? "tried again" : "not read"))
        return error.isTransient ? .transient : .answer(nil)
      }
    }
    do throws(ArtDecoder.Failure) {
      return .answer(try ArtDecoder.palette(of: bytes, background: settings.background))
    } catch {
      debug("art: \(name): \(error); the configured colours stay")
      return .answer(nil)
    }
  }
}

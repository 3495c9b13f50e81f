import PulseBarCore
import PulseBarSystem

/// Builds the active track's art colours (`colors.from_art`) on the players' thread, as
/// ``LyricFinder`` finds its lyric: no file is read or decoded on the engine's, and the engine
/// gets the ``ArtPalette`` inside the ``NowPlaying`` it is handed.
///
/// `mpris:artUrl` is untrusted: a `file://` path is read only when it is a regular file of at
/// most ``ArtSource/maximumImageBytes`` (``RegularFile``); a `data:` URI is decoded from
/// base64; `http(s)://` is not fetched. Once per track: the last URL's palette (or its
/// failure) is kept, and nothing else.
struct ArtFinder {
  /// `colors.from_art` and `colors.background`.
  private(set) var settings: ArtSettings
  /// Where a reload posts new ``settings`` (the engine's thread posts, this one takes).
  let reloads: Mailbox<ArtSettings>
  /// The last URL asked for and its palette.
  private var last: (url: String?, palette: ArtPalette?)?

  init(settings: ArtSettings, reloads: Mailbox<ArtSettings>) {
    self.settings = settings
    self.reloads = reloads
  }

  /// Takes reloaded settings; true when they changed (the palette is then built again).
  mutating func takeReload() -> Bool {
    guard let settings = reloads.take(), settings != self.settings else { return false }
    self.settings = settings
    last = nil
    return true
  }

  /// The palette for the art at `url` (`nil`: off, no art, or it failed: the configured
  /// colours stay); `debug` gets a `-v` line when art is refused, once per track.
  mutating func palette(for url: String?, debug: (String) -> Void) -> ArtPalette? {
    guard settings.enabled else { return nil }
    if let last, last.url == url { return last.palette }
    let palette = url.flatMap { build($0, debug: debug) }
    last = (url, palette)
    return palette
  }

  private func build(_ url: String, debug: (String) -> Void) -> ArtPalette? {
    let bytes: [UInt8]
    let name: String
    switch ArtSource.parse(url) {
    case .unsupported(let reason):
      debug("art: \(reason); the configured colours stay")
      return nil
    case .bytes(let data):
      (bytes, name) = (data, "the data: URI")
    case .file(let path):
      name = path
      do throws(RegularFile.Failure) {
        bytes = try RegularFile.read(path, maximumBytes: ArtSource.maximumImageBytes)
      } catch {
        debug("art: \(path): \(error); not read")
        return nil
      }
    }
    do throws(ArtDecoder.Failure) {
      return try ArtDecoder.palette(of: bytes, background: settings.background)
    } catch {
      debug("art: \(name): \(error); the configured colours stay")
      return nil
    }
  }
}

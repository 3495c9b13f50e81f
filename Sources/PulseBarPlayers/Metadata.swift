import PulseBarCore

/// The parts of an MPRIS `Metadata` dictionary pulsebar shows.
package struct Metadata: Sendable, Equatable {
  /// `xesam:title`.
  package var title: String?
  /// `xesam:artist` (a list), joined with ", ".
  package var artist: String?
  /// `xesam:album`.
  package var album: String?
  /// `mpris:length`, microseconds on the bus, seconds here.
  package var length: Double?
  /// `xesam:url` (at most ``BusMessage/maximumURLBytes``, else left out).
  package var url: String?
  /// `xesam:asText`, the track's lyric as text (at most ``LyricFinder/maximumBytes``).
  package var text: String?
  /// `mpris:artUrl`: a `file://` URI of at most ``BusMessage/maximumURLBytes``, or a `data:`
  /// URI of at most ``ArtSource/maximumDataURIBytes``; longer ones are left out.
  package var artURL: String?

  package init(
    title: String? = nil, artist: String? = nil, album: String? = nil, length: Double? = nil,
    url: String? = nil, text: String? = nil, artURL: String? = nil
  ) {
    self.artURL = artURL
    self.url = url
    self.text = text
    self.title = title
    self.artist = artist
    self.album = album
    self.length = length
  }
}

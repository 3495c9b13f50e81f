import Testing

@testable import PulseBarCore

/// Where a track's lyric is looked for, from the player's untrusted `xesam:url`.
@Suite struct LyricPathsTests {
  @Test(
    arguments: [
      ("file:///music/a%20b/Song.flac", "/music/a b/Song.flac"),
      ("file://localhost/m/x.ogg", "/m/x.ogg"),
      ("FILE:///m/%C3%A9t%C3%A9.mp3", "/m/été.mp3"),
      ("file:///m/100%25.wav", "/m/100%.wav"),
    ] as [(String, String)])
  func fileURIsArePercentDecoded(uri: String, path: String) {
    #expect(LyricPaths.filePath(fromURI: uri) == path)
  }

  @Test(arguments: [
    "https://example.com/a.mp3", "file://host/a.mp3", "file:relative.mp3", "/plain/path.mp3",
    "file:///a%2", "file:///a%zz", "file:///a%00b.mp3", "file:///a%FF.mp3", "", "file://",
  ])
  func anythingElseNamesNoFile(uri: String) {
    #expect(LyricPaths.filePath(fromURI: uri) == nil)
  }

  @Test func theLrcBesideTheTrack() {
    #expect(LyricPaths.besideTrack("/m/Song.flac") == "/m/Song.lrc")
    #expect(LyricPaths.besideTrack("/m/a.b/Song") == "/m/a.b/Song.lrc")
    #expect(LyricPaths.besideTrack("/m/.hidden") == "/m/.hidden.lrc")
    #expect(LyricPaths.besideTrack("/m/x.tar.gz") == "/m/x.tar.lrc")
  }

  @Test func theDirectoryNamesArtistAndTitle() {
    #expect(
      LyricPaths.inDirectory("/l", artist: "AC/DC", title: "T.N.T.") == "/l/AC_DC - T.N.T..lrc")
    #expect(LyricPaths.inDirectory("/l/", artist: "../..", title: "x") == "/l/.._.. - x.lrc")
    #expect(LyricPaths.inDirectory("/l", artist: nil, title: "x") == nil)
    #expect(LyricPaths.inDirectory("", artist: "a", title: "x") == nil)
    #expect(
      LyricPaths.candidates(
        url: "file:///m/s.flac", artist: "A", title: "T", directory: "/l")
        == ["/m/s.lrc", "/l/A - T.lrc"])
    #expect(LyricPaths.candidates(url: "http://x/s", artist: "A", title: "T", directory: nil) == [])
    #expect(LyricPaths.directory("~/lyrics", home: "/home/u") == "/home/u/lyrics")
    #expect(LyricPaths.directory("~", home: "/home/u") == "/home/u")
    #expect(LyricPaths.directory("/srv/l", home: "/home/u") == "/srv/l")
    #expect(LyricPaths.directory("", home: "/home/u") == nil)
  }
}

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
      // Normalised: no empty or `.` component, also when percent-encoded.
      ("file:////m//./a/%2E/x.ogg/", "/m/a/x.ogg"),
      ("file:///m/.../..a/a../x", "/m/.../..a/a../x"),
    ] as [(String, String)])
  func fileURIsArePercentDecoded(uri: String, path: String) {
    #expect(LyricPaths.filePath(fromURI: uri) == path)
  }

  @Test(arguments: [
    "https://example.com/a.mp3", "file://host/a.mp3", "file:relative.mp3", "/plain/path.mp3",
    "file:///a%2", "file:///a%zz", "file:///a%00b.mp3", "file:///a%FF.mp3", "", "file://",
    // `..` is refused, not resolved (through a symbolic link it is not the lexical parent).
    "file:///m/../etc/passwd", "file:///m/%2E%2E/x", "file:///m/..", "file:///", "file:////./",
  ])
  func anythingElseNamesNoFile(uri: String) {
    #expect(LyricPaths.filePath(fromURI: uri) == nil)
  }

  @Test func pathsPastLinuxsLimitsNameNoFile() {
    let name = String(repeating: "n", count: 255)
    #expect(LyricPaths.filePath(fromURI: "file:///m/" + name) == "/m/" + name)
    #expect(LyricPaths.filePath(fromURI: "file:///m/" + name + "n") == nil)
    let path = String(repeating: "/abc", count: 1023)  // 4,092 bytes
    #expect(LyricPaths.filePath(fromURI: "file://" + path + "/ab") == path + "/ab")
    #expect(LyricPaths.filePath(fromURI: "file://" + path + "/abc") == nil)
    #expect(LyricPaths.filePath(fromURI: "file:///" + String(repeating: "%41", count: 5000)) == nil)
  }

  @Test func theLrcBesideTheTrack() {
    #expect(LyricPaths.besideTrack("/m/Song.flac") == "/m/Song.lrc")
    #expect(LyricPaths.besideTrack("/m/a.b/Song") == "/m/a.b/Song.lrc")
    #expect(LyricPaths.besideTrack("/m/.hidden") == "/m/.hidden.lrc")
    #expect(LyricPaths.besideTrack("/m/x.tar.gz") == "/m/x.tar.lrc")
    // `/` and `.` with a combining mark after them: one character each, the kernel's bytes.
    #expect(LyricPaths.besideTrack("/m/x.d/\u{301}name") == "/m/x.d/\u{301}name.lrc")
    #expect(LyricPaths.besideTrack("/m/a.\u{301}b") == "/m/a.lrc")
  }

  @Test func theDirectoryNamesArtistAndTitle() {
    #expect(
      LyricPaths.inDirectory("/l", artist: "AC/DC", title: "T.N.T.") == "/l/AC_DC - T.N.T..lrc")
    #expect(LyricPaths.inDirectory("/l/", artist: "../..", title: "x") == "/l/.._.. - x.lrc")
    // A `/` with a combining mark is one character, and still a separator to the kernel.
    #expect(
      LyricPaths.inDirectory("/l", artist: "../\u{301}../x", title: "y")
        == "/l/.._\u{301}.._x - y.lrc")
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

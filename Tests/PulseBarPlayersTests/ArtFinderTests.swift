import Glibc
import PulseBarCore
import PulseBarSystem
import Testing

@testable import PulseBarPlayers

/// The art a player's `mpris:artUrl` points to, read for real: `file://` and `data:` URIs,
/// what is refused (http, a FIFO), the settings, and one build per track.
@Suite struct ArtFinderTests {
  static let on = ArtSettings(enabled: true, background: ArtDecoderTests.black)

  static func finder(_ settings: ArtSettings = on) -> ArtFinder {
    ArtFinder(settings: settings, reloads: Mailbox(settings))
  }

  @Test func aFileURIIsReadOnceAndKeptForItsTrack() {
    let images = ArtDecoderTests.Images()
    let path = images.halves("cover art.png")
    var finder = Self.finder()
    let url = "file://" + path.replacingOccurrences(" ", "%20")
    let first = finder.palette(for: url, at: 0) { _ in }
    #expect(first?.bars == [ArtDecoderTests.red, ArtDecoderTests.cyan])
    unlink(path)
    let again = finder.palette(for: url, at: 0.5) { _ in }
    #expect(again == first, "kept for the same URL")
    var lines: [String] = []
    let missing = finder.palette(for: url + "x", at: 1) { lines.append($0) }
    #expect(missing == nil)
    #expect(lines.count == 1 && lines[0].contains("no such file"), "\(lines)")
  }

  @Test func aDataURIIsDecoded() throws {
    let images = ArtDecoderTests.Images()
    let path = images.halves("cover.png")
    let base64 = try #require(popenOutput("base64 -w0 '\(path)'"))
    var finder = Self.finder()
    let palette = finder.palette(for: "data:image/png;base64," + base64, at: 0) { _ in }
    #expect(palette?.bars == [ArtDecoderTests.red, ArtDecoderTests.cyan])
  }

  @Test func httpAFIFOAndOffGiveTheConfiguredColours() {
    let images = ArtDecoderTests.Images()
    var finder = Self.finder()
    var lines: [String] = []
    let http = finder.palette(for: "https://example.com/a.jpg", at: 0) { lines.append($0) }
    #expect(http == nil)
    let fifo = images.directory + "/cover.jpg"
    mkfifo(fifo, 0o600)
    let fromFIFO = finder.palette(for: "file://" + fifo, at: 1) { lines.append($0) }
    #expect(fromFIFO == nil)
    #expect(lines.count == 2, "\(lines)")
    #expect(lines.first?.contains("not fetched") == true)
    #expect(lines.last?.contains("not a regular file") == true)
    var off = Self.finder(ArtSettings(enabled: false, background: ArtDecoderTests.black))
    let whenOff = off.palette(for: "file://" + images.halves("c.png"), at: 0) { _ in }
    #expect(whenOff == nil)
  }

  @Test func aReloadedBackgroundBuildsThePaletteAgain() {
    let images = ArtDecoderTests.Images()
    let url = "file://" + images.make("navy.png", "-size 10x10 xc:'#101040'")
    var finder = Self.finder()
    let onBlack = finder.palette(for: url, at: 0) { _ in }
    let white = RGBColor(red: 255, green: 255, blue: 255)
    finder.reloads.post(ArtSettings(enabled: true, background: white))
    let reloaded = finder.takeReload()
    #expect(reloaded)
    let onWhite = finder.palette(for: url, at: 1) { _ in }
    #expect(onBlack != nil && onWhite != nil && onBlack != onWhite)
    #expect(onWhite?.bars == [RGBColor(red: 0x10, green: 0x10, blue: 0x40)], "readable as is")
  }
}

/// What `command` prints, its last newline dropped.
func popenOutput(_ command: String) -> String? {
  guard let pipe = popen(command, "r") else { return nil }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = fread(&buffer, 1, buffer.count, pipe)
    if count <= 0 { break }
    bytes += buffer[..<count]
  }
  guard pclose(pipe) == 0 else { return nil }
  if bytes.last == 10 { bytes.removeLast() }
  return String(decoding: bytes, as: UTF8.self)
}

extension String {
  fileprivate func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
    var out = ""
    for character in self { out += character == target ? replacement : String(character) }
    return out
  }
}

import Testing

@testable import PulseBarCore

/// `mpris:artUrl` read as untrusted input: which URIs name art, and base64 decoding.
@Suite struct ArtSourceTests {
  @Test func fileURIsNameLocalFiles() {
    #expect(ArtSource.parse("file:///music/a%20b/cover.jpg") == .file("/music/a b/cover.jpg"))
    #expect(ArtSource.parse("FILE://localhost/c.png") == .file("/c.png"))
  }

  @Test(
    arguments: [
      ("https://i.scdn.co/image/ab67", "art over https is not fetched"),
      ("http://example.com/a.jpg", "art over http is not fetched"),
      ("file://host/a.jpg", "not a local absolute file:// path"),
      ("file:///a%00.jpg", "not a local absolute file:// path"),
      ("data:image/png,rawbytes", "not a base64 data: URI"),
      ("data:image/png;base64,ab$d", "not a base64 data: URI"),
      ("/plain/path.jpg", "an unknown URI scheme"),
      ("", "an unknown URI scheme"),
    ] as [(String, String)])
  func otherURIsAreRefusedWithAReason(uri: String, reason: String) {
    #expect(ArtSource.parse(uri) == .unsupported(reason))
  }

  @Test func dataURIsAreDecoded() {
    #expect(ArtSource.parse("data:image/png;base64,iVBORw==") == .bytes([0x89, 0x50, 0x4E, 0x47]))
    #expect(ArtSource.parse("DATA:;BASE64,") == .bytes([]))
  }

  @Test(
    arguments: [
      ("", [] as [UInt8]), ("TQ==", [77]), ("TQ", [77]), ("TWE=", [77, 97]),
      ("TWFu", [77, 97, 110]),
      ("/+8=", [255, 239]),
    ] as [(String, [UInt8])])
  func base64(text: String, bytes: [UInt8]) {
    #expect(Base64.decode(Array(text.utf8)) == bytes)
  }

  @Test(arguments: ["T", "TWFuT", "TQ===", "TQ=a", "T Q=", "TQ==\n"])
  func badBase64IsRefused(text: String) {
    #expect(Base64.decode(Array(text.utf8)) == nil)
  }
}

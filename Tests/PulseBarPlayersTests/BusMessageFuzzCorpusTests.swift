import Foundation
import PulseBarCore
import Testing

@testable import PulseBarPlayers

/// The bus boundary over the fuzzer's seeds (fuzz/corpus/bus-message) and hand-made programs:
/// real sd-bus messages, read as the players' thread reads them.
@Suite struct BusMessageFuzzCorpusTests {
  static let corpus: String = {
    var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    components.removeLast(3)
    return components.joined(separator: "/") + "/fuzz/corpus/bus-message"
  }()

  static func read(_ bytes: [UInt8]) -> BusMessageFuzzing.Outcome? {
    bytes.withUnsafeBytes { BusMessageFuzzing.read($0) }
  }

  @Test func everySeedStaysWithinTheCaps() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus).sorted()
    #expect(names.count >= 7)
    for name in names {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/" + name)))
      guard let outcome = Self.read(bytes) else { continue }
      for text in [outcome.title, outcome.artist, outcome.album] {
        #expect((text?.utf8.count ?? 0) <= 1000, "\(name)")
      }
      if let length = outcome.length { #expect(length > 0 && length <= 7 * 86_400, "\(name)") }
    }
  }

  @Test func aLongTitleAndManyArtistsAreCut() throws {
    // Metadata { xesam:title: 250 × 2^12 bytes }.
    let title = try #require(Self.read([1, 6, 4, 0, 250, 12] + Array("A".utf8) + [0xFF]))
    #expect(title.title?.utf8.count == 1000)
    // Metadata { xesam:artist: 250 × 200 × 2 names }.
    let artists = try #require(
      Self.read([1, 6, 5, 5, 250, 200, 8, 0] + Array("Artist".utf8) + [0xFF]))
    let joined = try #require(artists.artist)
    #expect(joined.utf8.count <= 1000)
    #expect(joined.split(separator: ",").count <= BusMessage.maximumArtists)
  }

  @Test func statusPositionAndRateAreRead() throws {
    // PlaybackStatus "Playing"; then Position x 1000000 and Rate d 2.0.
    let status = try #require(Self.read([0, 0, 7, 0] + Array("Playing".utf8)))
    #expect(status.status == .playing)
    let position = try #require(
      Self.read([2, 1, 0, 0, 0, 0, 0, 0x0f, 0x42, 0x40, 3, 3, 0x40, 0, 0, 0, 0, 0, 0, 0]))
    #expect(position.position == 1_000_000)
    #expect(position.rate == 2)
  }

  /// The whole player path (``PlayerPathFuzzing``) over every seed with elapsed times from none
  /// to years, and over the numbers that trapped the daemon: a `Position` of `Int64.max`
  /// re-anchored by a status change, and a `Rate` of 1e308 times days.
  @Test func thePlayerPathKeepsItsBounds() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus).sorted()
    var inputs = try names.map {
      [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/" + $0)))
    }
    // Position x Int64.max; Position x Int64.max - 1 and Rate d 1e308 (0x7FE1CCF385EBC8A0).
    inputs.append([2, 1, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
    inputs.append(
      [
        2, 1, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE, 3, 3, 0x7F, 0xE1, 0xCC, 0xF3, 0x85,
        0xEB, 0xC8, 0xA0,
      ])
    for input in inputs {
      for elapsed: [UInt8] in [[0, 0, 0, 0], [0, 0x2F, 0x76, 0x00], [0xFF, 0xFF, 0xFF, 0xFF]] {
        let bytes = input + elapsed
        guard let outcome = bytes.withUnsafeBytes({ PlayerPathFuzzing.drive($0) }) else { continue }
        if let position = outcome.position {
          #expect(position >= 0 && position <= PlayerValueBounds.maximumPositionSeconds)
        }
        if let position = outcome.boundary.position {
          #expect(position <= PlayerValueBounds.maximumPositionMicroseconds)
        }
        #expect(outcome.lines.count == 3)
        for line in outcome.lines {
          #expect(line.last == "\n" && line.dropLast().allSatisfy { $0 != "\n" }, "\(line)")
        }
      }
    }
  }
}

import Glibc
import PulseBarCore
import PulseBarSystem
import Testing

@testable import PulseBarPlayers

/// The lyric files a player's track points to, read for real: the sources in order, and what
/// is refused (a missing file, a FIFO, a 50 MB file, a binary file) without blocking.
@Suite struct LyricFinderTests {
  /// A fresh directory with `track.flac`'s URL and a lyrics directory in it.
  final class Files {
    let directory: String
    var track: String { directory + "/track.flac" }
    var url: String { "file://" + directory.replacingSpaces() + "/track.flac" }
    var beside: String { directory + "/track.lrc" }
    var lyrics: String { directory + "/lyrics" }
    var inLyrics: String { lyrics + "/The Band - Song.lrc" }

    init() {
      var template = Array("/tmp/pulsebar-lyrics XXXXXX".utf8CString)
      directory = template.withUnsafeMutableBufferPointer {
        String(cString: mkdtemp($0.baseAddress!)!)
      }
      mkdir(lyrics, 0o700)
    }

    deinit { _ = system("rm -rf '\(directory)'") }

    func write(_ path: String, _ bytes: [UInt8]) {
      let file = fopen(path, "w")!
      _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
      fclose(file)
    }

    func write(_ path: String, _ text: String) { write(path, Array(text.utf8)) }

    func track(text: String? = nil) -> LyricFinder.Track {
      .init(url: url, artist: "The Band", title: "Song", text: text)
    }
  }

  static let beside = "[00:01.00]beside"
  static let inDirectory = "[00:01.00]in the directory"
  static let asText = "[00:01.00]as text"

  static func first(_ lyric: SyncedLyric?) -> String? { lyric?.lines.first?.text }

  @Test func sourcesInOrder() {
    let files = Files()
    var finder = LyricFinder(directory: files.lyrics, reloads: Mailbox(nil))
    var lines: [String] = []
    let track = files.track(text: Self.asText)
    let result1 = finder.lyric(for: track, at: 0) { lines.append($0) }
    #expect(Self.first(result1) == "as text")
    files.write(files.inLyrics, Self.inDirectory)
    // Another finder: the files are looked in once per track.
    finder = LyricFinder(directory: files.lyrics, reloads: Mailbox(nil))
    let other = track
    let result2 = finder.lyric(for: other, at: 0) { lines.append($0) }
    #expect(Self.first(result2) == "in the directory")
    files.write(files.beside, Self.beside + "\nnot a line\n")
    finder = LyricFinder(directory: files.lyrics, reloads: Mailbox(nil))
    let result3 = finder.lyric(for: other, at: 0) { lines.append($0) }
    #expect(Self.first(result3) == "beside")
    #expect(lines.last == "lyrics: 1 lines from \(files.beside); 1 malformed line skipped")
    let result4 = finder.lyric(for: nil, at: 0) { _ in }
    #expect(result4 == nil)
  }

  @Test func theSameTrackReadsNothingAgain() {
    let files = Files()
    var finder = LyricFinder(directory: nil, reloads: Mailbox(nil))
    files.write(files.beside, Self.beside)
    let result5 = finder.lyric(for: files.track(), at: 0) { _ in }
    #expect(Self.first(result5) == "beside")
    unlink(files.beside)
    let result6 = finder.lyric(for: files.track(), at: 0) { _ in }
    #expect(Self.first(result6) == "beside", "kept")
  }

  @Test func aReloadedDirectoryIsLookedIn() {
    let files = Files()
    let reloads = Mailbox<String?>(nil)
    var finder = LyricFinder(directory: nil, reloads: reloads)
    files.write(files.inLyrics, Self.inDirectory)
    let result7 = finder.lyric(for: files.track(), at: 0) { _ in }
    #expect(result7 == nil)
    reloads.post(files.lyrics)
    let result8 = finder.takeReload()
    #expect(result8)
    let result9 = finder.lyric(for: files.track(), at: 0) { _ in }
    #expect(Self.first(result9) == "in the directory")
    let again = finder.takeReload()
    #expect(!again)
  }

  @Test func refusedFilesFallThroughWithOneLine() throws {
    let files = Files()
    var finder = LyricFinder(directory: files.lyrics, reloads: Mailbox(nil))
    files.write(files.inLyrics, Self.inDirectory)
    var lines: [String] = []
    // A FIFO with no writer: the open does not block, and the next source is read.
    #expect(mkfifo(files.beside, 0o600) == 0)
    let start = monotonicSeconds()
    let result10 = finder.lyric(for: files.track(), at: 0) { lines.append($0) }
    #expect(Self.first(result10) == "in the directory")
    #expect(monotonicSeconds() - start < 0.5)
    #expect(lines.first == "lyrics: \(files.beside): not a regular file (a FIFO); not read")
    // 50 MB, refused by its size before a byte is read.
    unlink(files.beside)
    let big = fopen(files.beside, "w")!
    fseek(big, 50 << 20, SEEK_SET)
    fputc(0x0A, big)
    fclose(big)
    lines = []
    let track = files.track()
    finder = LyricFinder(directory: files.lyrics, reloads: Mailbox(nil))
    let result11 = finder.lyric(for: track, at: 0) { lines.append($0) }
    #expect(Self.first(result11) == "in the directory")
    #expect(lines.first == "lyrics: \(files.beside): larger than 1048576 bytes; not read")
    // Binary: no time tags, so not a synced lyric.
    var random = SeededRandom(seed: 7)
    files.write(files.beside, (0..<100_000).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    lines = []
    finder = LyricFinder(directory: files.lyrics, reloads: Mailbox(nil))
    let result12 = finder.lyric(for: track, at: 0) { lines.append($0) }
    #expect(Self.first(result12) == "in the directory")
    #expect(lines.first == "lyrics: \(files.beside): no LRC time tags; not a synced lyric")
    // A directory where the file should be, and nothing anywhere: no lyric.
    unlink(files.beside)
    mkdir(files.beside, 0o700)
    unlink(files.inLyrics)
    finder = LyricFinder(directory: files.lyrics, reloads: Mailbox(nil))
    let result13 = finder.lyric(for: track, at: 0) { _ in }
    #expect(result13 == nil)
  }

  @Test func invalidUTF8IsReplaced() {
    let files = Files()
    var finder = LyricFinder(directory: nil, reloads: Mailbox(nil))
    files.write(files.beside, Array("[00:01.00]caf".utf8) + [0xE9, 0xFF] + Array("!".utf8))
    let result14 = finder.lyric(for: files.track(), at: 0) { _ in }
    #expect(Self.first(result14) == "caf\u{FFFD}\u{FFFD}!")
  }
}

extension String {
  /// Spaces as `%20`, as a player writes a URL.
  fileprivate func replacingSpaces() -> String {
    split(separator: " ", omittingEmptySubsequences: false).joined(separator: "%20")
  }
}

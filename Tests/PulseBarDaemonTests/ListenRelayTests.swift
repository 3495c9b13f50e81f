import PulseBarCore
import Testing

@testable import PulseBarDaemon

/// `pulsebar listen`'s relay: whole lines out in one write per read, a cut line kept for the
/// next read, the daemon's refusal told apart, and the newest line that shows something kept
/// for the offline line's width (measured once, not per line).
@Suite struct ListenRelayTests {
  /// Feeds `chunks` one read each; returns the writes and the relay.
  private static func relay(
    _ chunks: [String], format: OutputFormat? = .waybar, capacity: Int = 64,
    emptyLine: [UInt8]? = nil, maximumLineBytes: Int? = nil, newestLineOnly: Bool = false
  ) -> (writes: [String], relay: ListenRelay, refused: String?) {
    var relay = ListenRelay(
      keepingShownLinesOf: format, capacity: capacity, emptyLine: emptyLine,
      maximumLineBytes: maximumLineBytes, newestLineOnly: newestLineOnly)
    var writes: [String] = []
    for chunk in chunks {
      var bytes = Array(chunk.utf8)[...]
      while !bytes.isEmpty {
        let count = relay.receive { space in
          let count = min(space.count, bytes.count)
          space.copyBytes(from: bytes.prefix(count))
          return count
        }
        bytes = bytes.dropFirst(count)
      }
      switch relay.take() {
      case .partial: continue
      case .overlong: return (writes, relay, "overlong")
      case .error(let message): return (writes, relay, message)
      case .lines:
        let written = relay.withLines { bytes in
          writes.append(String(decoding: bytes, as: UTF8.self))
          return true
        }
        #expect(written)
      }
    }
    return (writes, relay, nil)
  }

  @Test func wholeLinesGoOutInOneWritePerRead() {
    let (writes, relay, refused) = Self.relay(["a\nb", "c\nd\ne", "f", "\n"], format: .text)
    #expect(writes == ["a\n", "bc\nd\n", "ef\n"])
    #expect(refused == nil && relay.sawFrames)
    #expect(String(decoding: relay.shownLine, as: UTF8.self) == "ef")
  }

  /// For i3blocks, which reads one line per write of a persistent block: only the newest line
  /// of a read goes out, so a hidden line (a lone NUL, written once) is the one it reads.
  @Test func underI3blocksOnlyTheNewestLineOfAReadGoesOut() {
    let (writes, relay, _) = Self.relay(
      ["a\nb", "c\nd\ne", "f\n", "g\n\n"], format: .text, emptyLine: [0, 10],
      newestLineOnly: true)
    #expect(writes == ["a\n", "d\n", "ef\n", "\u{0}\n"])
    #expect(String(decoding: relay.shownLine, as: UTF8.self) == "g", "the newest line shown")
  }

  /// A line as long as the buffer fits; one byte more is overlong (the listener drops the
  /// connection), and the buffer never grows: 64 KiB by default.
  @Test func aLineLongerThanTheBufferIsOverlong() {
    let fits = String(repeating: "x", count: 63) + "\n"
    #expect(Self.relay([String(fits.prefix(40)), String(fits.dropFirst(40))]).writes == [fits])
    let long = String(repeating: "x", count: 64)
    let (writes, _, ended) = Self.relay([String(long.prefix(60)), String(long.dropFirst(60)), "\n"])
    #expect(writes.isEmpty && ended == "overlong")
    #expect(ListenRelay.maximumLine == 65536)
    var relay = ListenRelay(keepingShownLinesOf: .text)
    var fed = 0
    while relay.take() != .overlong && fed <= 1 << 20 {
      fed += relay.receive { space in
        space.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "y"))
        return min(space.count, 1000)
      }
    }
    #expect(fed == 65536, "an unterminated line is cut off at 64 KiB")
  }

  /// Each byte is scanned for a newline once, however the reads cut a long line: a line of
  /// 60,000 bytes read one byte at a time costs 60,000 steps, not 1.8 billion.
  @Test func theNewlineScanIsLinear() {
    let line = String(repeating: "z", count: 60000) + "\n" + "tail"
    let chunks = line.map { String($0) }
    let (writes, relay, _) = Self.relay(chunks, format: .text, capacity: 65536)
    #expect(writes.count == 1 && writes[0].utf8.count == 60001)
    #expect(relay.bytesScanned == line.utf8.count, "scanned \(relay.bytesScanned) bytes")
  }

  @Test func theDaemonsRefusalIsNoFrame() {
    let (writes, relay, refused) = Self.relay(["error: unknown format\n"])
    #expect(writes.isEmpty && refused == "error: unknown format" && !relay.sawFrames)
    let later = Self.relay(["a\n", "error: not a refusal\n"], format: .text)
    #expect(later.refused == nil && later.writes == ["a\n", "error: not a refusal\n"])
  }

  /// A hidden waybar line (empty text) keeps the line before it; json and raw keep none.
  @Test func theNewestShownLineIsKeptForTheWidth() {
    let shown = #"{"text":"► ▁▂","class":["playing"]}"#
    let hidden = #"{"text":"","alt":"hidden","class":["hidden"]}"#
    let (_, relay, _) = Self.relay([shown + "\n" + hidden + "\n", hidden + "\n"], capacity: 256)
    #expect(String(decoding: relay.shownLine, as: UTF8.self) == shown)
    var width = LiveLineWidth(format: .waybar, bars: 2, configuration: Configuration())
    width.learn(from: relay.shownLine)
    #expect(width.cells == 4)
    let text = Self.relay(["a\n\n"], format: .text)
    #expect(String(decoding: text.relay.shownLine, as: UTF8.self) == "a")
    #expect(Self.relay(["0;1;\n"], format: nil).relay.shownLine.isEmpty)
  }

  /// Under i3blocks an empty (hidden) line goes out as a lone NUL, which i3blocks 1.4 takes as
  /// an empty text (it ignores an empty line); the lines around it are unchanged.
  @Test func anEmptyLineCanBeReplaced() {
    let nul: [UInt8] = [0, 10]
    let (writes, relay, _) = Self.relay(["► a\n\n", "\nb\n\nc\n"], format: .text, emptyLine: nul)
    #expect(writes == ["► a\n", "\0\n", "\0\n", "b\n", "\0\n", "c\n"])
    #expect(String(decoding: relay.shownLine, as: UTF8.self) == "c")
    #expect(Self.relay(["a\n\nb\n"], format: .text).writes == ["a\n\nb\n"])
  }

  /// Under i3blocks a line over 1,000 bytes (a Pango gradient over many bars) goes out
  /// without its tags, within the bytes; the lines that fit around it go out as they came,
  /// and the width is still learned from the line the daemon sent.
  @Test func anOverLongLineIsMadeSafe() {
    let span = ##"<span foreground="#89b4fa">▆</span>"##
    let long = "► " + String(repeating: span, count: 40) + " A &amp; B"
    let (writes, relay, _) = Self.relay(
      ["a\n" + long + "\nb\n"], format: .text, capacity: 4096, emptyLine: [0, 10],
      maximumLineBytes: BoundedLine.i3blocksBytes)
    #expect(writes == ["a\n", "► " + String(repeating: "▆", count: 40) + " A &amp; B\n", "b\n"])
    #expect(writes.allSatisfy { $0.utf8.count <= 1024 })
    let other = Self.relay([long + "\n"], format: .text, capacity: 4096)
    #expect(other.writes == [long + "\n"], "only under i3blocks")
    #expect(String(decoding: relay.shownLine, as: UTF8.self) == "b")
  }
}

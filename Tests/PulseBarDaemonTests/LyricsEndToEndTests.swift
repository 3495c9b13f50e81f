import Glibc
import PulseBarCore
import PulseBarSystem
import PulseBarTestSupport
import Testing

/// Synced lyrics with the real `pulsebar run --input pulse`, a private session bus and mpv
/// with mpv-mpris playing sox-made tracks, their `.lrc` files beside them or in
/// `lyrics.directory`: the lines on time, across a seek and a pause, and the files a hostile
/// path can name refused without a stall.
@Suite("Synced lyrics, end to end", .serialized)
struct LyricsEndToEndTests {
  typealias Frame = PulseEndToEndTests.Frame

  /// A private server and bus, the daemon on them (json on stdout, `-v`), a lyrics directory.
  final class Desktop {
    let server: PrivatePulseServer
    let bus: PrivateSessionBus
    let daemon: ChildProcess
    let lyrics: String
    private var players: [ChildProcess] = []
    var environment: [String: String] { server.environment.merging(bus.environment) { $1 } }

    init() throws {
      server = try PrivatePulseServer()
      bus = try PrivateSessionBus(directory: server.directory)
      lyrics = server.directory + "/lyrics"
      mkdir(lyrics, 0o700)
      let config = server.directory + "/pulsebar.conf"
      LyricsEndToEndTests.write(config, "[lyrics]\ndirectory = \(lyrics)\n")
      try #require(access(Binary.path, X_OK) == 0, "build pulsebar first: \(Binary.path)")
      daemon = try ChildProcess(
        Binary.path,
        [
          "run", "--input", "pulse", "--format", "json", "--bars", "8", "-v", "--config", config,
          "--socket", server.directory + "/pulsebar.sock",
        ], environment: server.environment)
      try #require(daemon.readLine(timeout: 10) != nil, "no first frame: \(daemon.standardError)")
      _ = daemon.readLines(for: 2.2)
    }

    deinit {
      MPRISEndToEndTests.stop(players: players, daemon: daemon, bus: bus, server: server)
    }

    func track(_ name: String, title: String) throws -> String {
      try MPRISFixtures.taggedTrack(in: server.directory, name, title: title, hertz: 440)
    }

    /// mpv on `files`; it never opens the `.lrc` files itself (as subtitles), so what is
    /// measured is pulsebar's reading alone.
    func play(_ files: [String], paused: Bool = false) throws {
      players.append(
        try MPRISFixtures.mpv(
          files, paused: paused, environment: environment, options: ["--sub-auto=no"]))
    }

    func control(_ arguments: [String]) throws -> Int32 {
      try Binary.run(["ctl"] + arguments, environment: environment, timeout: 10).status
    }

    /// `Seek(offset)` on mpv's MPRIS interface, as a bar's scroll binding would.
    func seek(by seconds: Int) throws {
      let call = try ChildProcess(
        "dbus-send",
        [
          "--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.mpv",
          "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player.Seek",
          "int64:\(seconds * 1_000_000)",
        ], environment: environment)
      #expect(try call.waitForExit(timeout: 5) == 0, "Seek: \(call.standardError)")
    }

    /// The next frame that satisfies `predicate`, within `timeout`.
    func frame(timeout: Double, where predicate: (Frame) -> Bool) -> Frame? {
      daemon.waitForLine(timeout: timeout) { predicate(Frame($0)) }.map(Frame.init)
    }
  }

  static func write(_ path: String, _ text: String) {
    let file = fopen(path, "w")!
    fputs(text, file)
    fclose(file)
  }

  /// A line every 1.5 s from 1 s to 28 s, each naming its own time.
  static let tags = (0...18).map { 1 + 1.5 * Double($0) }
  static let lrc =
    "[ar:The Band]\n[ti:First Song]\n"
    + tags.map { "[00:\(tagText($0))]line at \($0)" }.joined(separator: "\n") + "\n"

  static func tagText(_ seconds: Double) -> String {
    let whole = Int(seconds)
    return (whole < 10 ? "0" : "") + "\(whole).\(Int((seconds - Double(whole)) * 100))"
  }

  /// The tag of the line a frame shows, read back from its text.
  static func tag(_ frame: Frame) -> Double? {
    frame.string("lyric").flatMap { $0.hasPrefix("line at ") ? Double($0.dropFirst(8)) : nil }
  }

  /// The line a position shows: the last tag at or before it.
  static func expectedTag(at position: Double) -> Double? { tags.last { $0 <= position } }

  @Test("lines within 0.1 s of their tags while playing; a seek; a pause holds the line")
  func linesFollowThePlayer() throws {
    let desktop = try Desktop()
    let track = try desktop.track("first", title: "First Song")
    Self.write(desktop.server.directory + "/first.lrc", Self.lrc)
    try desktop.play([track])
    // Every change of line: its frame's position and when it arrived.
    var changes: [(tag: Double, position: Double, arrival: Double)] = []
    let deadline = ChildProcess.now() + 15
    while ChildProcess.now() < deadline, (changes.last?.tag ?? 0) < 8.5 {
      guard let line = desktop.daemon.readLine(timeout: 1) else { continue }
      let frame = Frame(line)
      guard let tag = Self.tag(frame), tag != changes.last?.tag,
        let position = frame.field("position").flatMap({ Double($0) })
      else { continue }
      changes.append((tag, position, ChildProcess.now()))
    }
    #expect(changes.count >= 5, "lines seen: \(changes) \(desktop.daemon.standardError)")
    for change in changes.dropFirst() {
      #expect(
        change.position >= change.tag && change.position < change.tag + 0.1,
        "line \(change.tag) shown at \(change.position)")
    }
    for (previous, next) in zip(changes.dropFirst(), changes.dropFirst(2)) {
      let apart = next.arrival - previous.arrival
      #expect(
        abs(apart - (next.tag - previous.tag)) < 0.1, "\(previous.tag)→\(next.tag): \(apart) s")
    }

    // A seek 10 s on: the line for the new position within 0.3 s.
    let before = changes.last?.position ?? 0
    let seekStart = ChildProcess.now()
    try desktop.seek(by: 10)
    let seeked = desktop.frame(timeout: 3) {
      ($0.field("position").flatMap { Double($0) } ?? 0) > before + 9
    }
    let seekAfter = ChildProcess.now() - seekStart
    let seekedAt = seeked?.field("position").flatMap { Double($0) } ?? 0
    #expect(
      seeked.flatMap(Self.tag) == Self.expectedTag(at: seekedAt),
      "\(String(describing: seeked?.line))")
    #expect(seekAfter < 0.3, "the seek showed after \(seekAfter) s")

    // Paused: the line holds, and nothing is written once the picture settles.
    #expect(try desktop.control(["pause"]) == 0)
    let settled = desktop.frame(timeout: 10) {
      $0.state == "paused" && $0.line.contains("\"bubbles\":[]") && $0.field("morph") == "0.000"
    }
    let heldTag = settled.flatMap(Self.tag)
    let heldAt = settled?.field("position").flatMap { Double($0) } ?? 0
    #expect(
      heldTag != nil && heldTag == Self.expectedTag(at: heldAt),
      "\(String(describing: settled?.line))")
    let idle = desktop.daemon.readLines(for: 2)
    #expect(idle.isEmpty, "\(idle.count) lines while paused: \(idle.last ?? "")")

    // Playing again: the next line at its time from where it paused.
    let next = Self.tags.first { $0 > heldAt } ?? 0
    let resumed = ChildProcess.now()
    #expect(try desktop.control(["play"]) == 0)
    let nextFrame = desktop.frame(timeout: 5) { Self.tag($0) == next }
    let took = ChildProcess.now() - resumed
    #expect(nextFrame != nil, "never showed \(next)")
    #expect(
      abs(took - (next - heldAt)) < 0.15, "\(next) showed \(took) s after play from \(heldAt)")
    print("lyrics figure: \(changes.count) lines, seek shown after \(Int(seekAfter * 1000)) ms")
  }

  @Test("a missing file, a FIFO, a 50 MB file and a binary file: no stall, the next source")
  func hostileFilesAreRefused() throws {
    let desktop = try Desktop()
    let directory = desktop.server.directory
    let missing = try desktop.track("missing", title: "Missing Song")
    let fifo = try desktop.track("fifo", title: "Fifo Song")
    #expect(mkfifo(directory + "/fifo.lrc", 0o600) == 0)
    Self.write(desktop.lyrics + "/The Band - Fifo Song.lrc", "[00:00.00]from the directory\n")
    let big = try desktop.track("big", title: "Big Song")
    let file = fopen(directory + "/big.lrc", "w")!
    fseek(file, 50 << 20, SEEK_SET)
    fputs("[00:00.00]never read\n", file)
    fclose(file)
    let binary = try desktop.track("binary", title: "Binary Song")
    var random = SeededRandom(seed: 3)
    let bytes = (0..<200_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    let out = fopen(directory + "/binary.lrc", "w")!
    _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, out) }
    fclose(out)
    try desktop.play([missing, fifo, big, binary], paused: true)
    let expected: [(String, String?)] = [
      ("Missing Song", nil), ("Fifo Song", "from the directory"), ("Big Song", nil),
      ("Binary Song", nil),
    ]
    for (index, (title, lyric)) in expected.enumerated() {
      if index > 0 { #expect(try desktop.control(["next"]) == 0) }
      let start = ChildProcess.now()
      let frame = desktop.frame(timeout: 10) { $0.string("title") == title }
      #expect(frame != nil, "\(title) never showed: \(desktop.daemon.standardError)")
      #expect(ChildProcess.now() - start < 1, "\(title) took \(ChildProcess.now() - start) s")
      #expect(frame?.string("lyric") == lyric, "\(title): \(String(describing: frame?.line))")
    }
    let log = desktop.daemon.standardError
    #expect(log.contains("fifo.lrc: not a regular file (a FIFO); not read"), "\(log)")
    #expect(log.contains("big.lrc: larger than 1048576 bytes; not read"), "\(log)")
    #expect(log.contains("binary.lrc: no LRC time tags; not a synced lyric"), "\(log)")
    #expect(!log.contains("missing.lrc"), "a missing file is no news: \(log)")
  }
}

import Glibc
import PulseBarSystem
import PulseBarTestSupport
import Testing

/// 50 `loadfile`s of a real mpv while it plays (MPRIS `OpenUri`, which mpv-mpris carries out
/// as `loadfile URI replace`), and after each the json `position` against mpv's own
/// `Position`: within 0.1 s, plus what the measurement itself cannot tell apart (half the
/// time `Position` took to answer, and the frame's own period). The jump once seen in a real
/// bar was 31 s.
@Suite("Track changes with real mpv", .serialized)
struct TrackChangeEndToEndTests {
  typealias Frame = PulseEndToEndTests.Frame

  @Test func fiftyLoadfilesWhilePlaying() throws {
    let desktop = try MPRISEndToEndTests.Desktop()
    let environment = desktop.server.environment.merging(desktop.bus.environment) { $1 }
    _ = try desktop.play([desktop.first])
    let started = desktop.waitForFrame(timeout: 10) {
      $0.string("title") == "First Song" && $0.state == "playing"
    }
    try #require(started != nil, "mpv never played: \(desktop.daemon.standardError)")
    var worst = 0.0
    for change in 1...50 {
      let (file, title) =
        change % 2 == 1 ? (desktop.second, "Second Song") : (desktop.first, "First Song")
      try Self.mpv(["OpenUri", "string:file://" + file], environment: environment)
      let shownTitle = desktop.waitForFrame(timeout: 5) { $0.string("title") == title }
      #expect(shownTitle != nil, "change \(change): \(title) never shown")
      // Plays a while (1.1 to 1.3 s: past two settling reads, so a late start is caught), then
      // the next frame and mpv's position.
      let wait = 1.1 + Double(change % 3) * 0.1
      let frames = desktop.daemon.readLines(for: wait)
      guard let line = desktop.daemon.readLine(timeout: 2) else {
        Issue.record("change \(change): no frame")
        continue
      }
      let read = ChildProcess.now()
      let asked = ChildProcess.now()
      let said = try Self.position(environment: environment)
      let answered = ChildProcess.now()
      guard let shown = Frame(line).field("position").flatMap({ Double($0) }) else {
        Issue.record("change \(change): no position in \(line)")
        continue
      }
      // mpv plays at rate 1: where it was when the frame was read.
      let player = said - ((asked + answered) / 2 - read)
      let period = frames.isEmpty ? 0.1 : wait / Double(frames.count)
      let error = abs(shown - player)
      worst = max(worst, error)
      #expect(
        error <= 0.1 + (answered - asked) / 2 + period,
        "change \(change): shown \(shown) s, mpv \(player) s (frame period \(period) s)")
    }
    print(
      "Track change figure: worst json position off mpv's by \(Int(worst * 1000)) ms over 50 loadfiles"
    )
  }

  /// Calls `method` and its arguments on mpv's `org.mpris.MediaPlayer2.Player` (dbus-send).
  static func mpv(_ call: [String], environment: [String: String]) throws {
    let send = try ChildProcess(
      "dbus-send",
      [
        "--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.mpv",
        "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player." + call[0],
      ] + call.dropFirst(), environment: environment)
    try #require(try send.waitForExit(timeout: 5) == 0, "\(call[0]): \(send.standardError)")
  }

  /// mpv's MPRIS `Position`, seconds.
  static func position(environment: [String: String]) throws -> Double {
    let get = try ChildProcess(
      "dbus-send",
      [
        "--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.mpv",
        "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties.Get",
        "string:org.mpris.MediaPlayer2.Player", "string:Position",
      ], environment: environment)
    let line = get.waitForLine(timeout: 5) { $0.contains("int64") }
    _ = try get.waitForExit(timeout: 5)
    let value = line?.split(separator: " ").last.flatMap { Int64($0) }
    return Double(try #require(value, "no Position: \(get.standardError)")) / 1_000_000
  }
}

import Foundation
import PulseBarTestSupport
import Testing

/// A scrolling title (`{title:12:scroll}`) in the real daemon: it moves while the player plays
/// (at `output.scroll_speed` in wall time), keeps its width, and stands still with no new lines
/// while the sound stops.
@Suite("Scrolling fields", .serialized)
struct ScrollingFieldTests {
  @Test("a long title scrolls while playing and stands still once the sound stops")
  func scrollsWhilePlaying() throws {
    let desktop = try HostilePlayerTests.Desktop(
      format: "text",
      config: "[output]\ntext = [{title:12:scroll}] {state}\nscroll_speed = 10\nscroll_pause = 0\n")
    let tone = desktop.server.directory + "/tone.wav"
    try Binary.shell("sox -n -r 44100 -c 2 \(tone) synth 30 sine 440")
    let player = try desktop.fake([
      "--name", "long", "--status", "Playing", "--title", "A title far longer than twelve cells",
      "--play", tone,
    ])
    // `{state}` takes its longest word's 12 cells: the line is 27 cells in every state.
    let first = desktop.daemon.waitForLine(timeout: 10) { $0.contains("] Playing") }
    #expect(first != nil, "the title never showed: \(desktop.daemon.standardError)")
    let lines = desktop.daemon.readLines(for: 1.5)
    let windows = Set(lines.filter { $0.hasPrefix("[") })
    #expect(windows.count >= 8, "it did not move at 10 cells a second: \(lines)")
    #expect(windows.allSatisfy { $0.count == 27 }, "a window changed width: \(windows)")
    // The tone's stream goes (its paplay killed): the window stands still, no line is written.
    try Binary.shell("pkill -KILL -P \(player.pid)")
    let stopped = desktop.daemon.waitForLine(timeout: 10) {
      $0.contains("] Stopped") || $0.contains("] Paused")
    }
    #expect(stopped != nil, "never stopped: \(desktop.daemon.standardError)")
    let still = desktop.daemon.readLines(for: 2)
    #expect(still.isEmpty, "lines while paused: \(still)")
  }
}

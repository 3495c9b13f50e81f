import Foundation
import PulseBarCore
import PulseBarTestSupport
import Testing

/// Numbers no real player sends, from a fake player on a private bus, against the real daemon:
/// a `Position` near `Int64.max`, a huge `Rate` times the time elapsed, `Seeked(Int64.max)`, each
/// followed by status changes that re-anchor the position (where the daemon used to trap on
/// the `Int64` conversion, at the first read and at every restart). The daemon must keep
/// serving frames, the position within ``PlayerValueBounds``.
@Suite("Hostile player numbers", .serialized)
struct HostileNumbersTests {
  static let maximumSeconds = PlayerValueBounds.maximumPositionSeconds

  @Test(
    "out-of-range Position, Rate and Seeked: the daemon keeps serving frames",
    arguments: [
      ["--position", String(Int64.max - 1)],
      ["--position", "0", "--rate", "1e308"],
      ["--position", "1000", "--rate", "nan"],
      ["--position", "1000", "--seek-after", "0.5", "--seek-to", String(Int64.max)],
      ["--position", String(Int64.min), "--rate=-1e300"],
    ])
  func theDaemonSurvives(values: [String]) throws {
    let desktop = try HostilePlayerTests.Desktop(config: "[output]\ntext = {position}\n")
    let player = try desktop.fake(
      ["--name", "hostile", "--status", "Playing", "--toggle-every", "0.4"] + values)
    let first = desktop.waitForFrame(timeout: 10) { $0["player"] as? String == "hostile" }
    #expect(first != nil, "the player never showed: \(desktop.daemon.standardError)")
    // Status changes re-anchor the position: the old code trapped at the first of them.
    #expect(player.waitForLine(timeout: 5) { $0 == "toggled Playing" } != nil)
    let later = desktop.waitForFrame(timeout: 5) { $0["player"] as? String == "hostile" }
    #expect(desktop.daemon.isRunning, "the daemon died: \(desktop.daemon.standardError)")
    #expect(later != nil, "no frame after the status changes: \(desktop.daemon.standardError)")
    for frame in [first, later] {
      guard let position = frame?["position"] as? Double else { continue }
      #expect(position >= 0 && position <= Self.maximumSeconds, "position \(position)")
    }
  }
}

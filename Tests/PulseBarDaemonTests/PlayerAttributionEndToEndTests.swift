import Foundation
import PulseBarTestSupport
import Testing

/// Who the line names, in the real daemon (``PlayerAttribution``): sound from a player that
/// `players.ignore` leaves out is not credited to the active, paused player.
@Suite("Player attribution", .serialized)
struct PlayerAttributionEndToEndTests {
  @Test(
    "players.ignore = loud while loud plays: the output plays, the paused player's title stays out")
  func anIgnoredPlayersSoundIsNotCreditedToThePausedOne() throws {
    let desktop = try HostilePlayerTests.Desktop(
      config: "[players]\nignore = loud\n[output]\ntext = {glyph} {title} {position}\n")
    let tone = desktop.server.directory + "/loud.wav"
    try Binary.shell("sox -n -r 44100 -c 2 \(tone) synth 20 sine 440")
    try desktop.fake([
      "--name", "other", "--status", "Paused", "--title", "Paused One", "--position", "30000000",
    ])
    let paused = desktop.waitForFrame(timeout: 10) {
      $0["title"] as? String == "Paused One" && $0["state"] as? String == "paused"
    }
    #expect(paused != nil, "the paused player never showed: \(desktop.daemon.standardError)")
    try desktop.fake(["--name", "loud", "--status", "Playing", "--title", "Loud", "--play", tone])
    let playing = desktop.waitForFrame(timeout: 10) { $0["state"] as? String == "playing" }
    #expect(playing != nil, "the ignored player's sound never played")
    #expect(playing?["title"] == nil, "credited to the paused player: \(playing ?? [:])")
    #expect(playing?["position"] == nil)
    let lines = desktop.daemon.readLines(for: 1).compactMap(HostilePlayerTests.object)
    #expect(!lines.contains { $0["title"] as? String == "Loud" }, "the ignored player was shown")
    #expect(
      !lines.contains { $0["state"] as? String == "playing" && $0["title"] != nil },
      "a playing line named a player that does not play")
  }
}

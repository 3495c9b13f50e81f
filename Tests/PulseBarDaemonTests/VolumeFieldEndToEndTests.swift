import PulseBarTestSupport
import Testing

/// `{volume}` and `{player_icon}` in the real daemon's text line, from a fake player on a
/// private bus: the volume read at first (`GetAll`), then followed (`PropertiesChanged`) when
/// `pulsebar ctl volume` changes it.
@Suite(.serialized) struct VolumeFieldEndToEndTests {
  @Test func theVolumeFollowsTheBarsOwnScroll() throws {
    let desktop = try HostilePlayerTests.Desktop(
      format: "text",
      config: "[output]\ntext = {player_icon} {volume}\n[players]\nicons = fake:F, other:O\n")
    let player = try desktop.fake(["--name", "fake", "--status", "Paused", "--volume", "0.35"])
    let first = desktop.daemon.waitForLine(timeout: 10) { $0.hasPrefix("F 35%") }
    #expect(first != nil, "no volume line: \(desktop.daemon.standardError)")
    let result = try Binary.run(
      ["ctl", "volume", "+5%"],
      environment: desktop.environment.merging(["XDG_CONFIG_HOME": desktop.server.directory]) { $1 }
    )
    #expect(result.status == 0, "\(result.error)")
    #expect(player.readLine(timeout: 5) == "set Volume 0.4")
    let changed = desktop.daemon.waitForLine(timeout: 5) { $0.hasPrefix("F 40%") }
    #expect(changed != nil, "the new volume did not show")
  }
}

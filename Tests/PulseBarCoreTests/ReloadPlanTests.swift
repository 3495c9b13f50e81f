import Testing

@testable import PulseBarCore

/// Which keys a reload applies at once and which wait for a restart (the input and the socket,
/// made once at start-up).
@Suite struct ReloadPlanTests {
  /// A reloaded file's changes, by name.
  static func change(_ name: String, _ configuration: inout Configuration) {
    switch name {
    case "bars": configuration.bars = 16
    case "stereo and fps":
      configuration.channels = .stereo
      configuration.fps = 30
    case "glyphs and markup":
      configuration.barGlyphs = ["a", "b"]
      configuration.markup = .pango
    case "input": configuration.input = .pipewire
    case "raw input":
      configuration.rawSampleRate = 48000
      configuration.rawChannels = 1
    case "socket and bars":
      configuration.socketPath = "/tmp/other.sock"
      configuration.maxClients = 8
      configuration.bars = 12
    default: Issue.record("no change named \(name)")
    }
  }

  @Test(
    arguments: [
      ("bars", []), ("stereo and fps", []), ("glyphs and markup", []),
      ("input", ["input.source"]), ("raw input", ["input.raw_sample_rate", "input.raw_channels"]),
      ("socket and bars", ["socket.path", "socket.max_clients"]),
    ] as [(String, [String])])
  func liveKeysApplyAndTheOthersWait(name: String, restartOnly: [String]) {
    let running = Configuration()
    var reloaded = running
    Self.change(name, &reloaded)
    let plan = ReloadPlan(running: running, reloaded: reloaded)
    #expect(plan.restartOnly == restartOnly, "\(name)")
    // What applies is the reloaded config with the restart-only keys at their running values.
    var expected = reloaded
    expected.input = running.input
    expected.rawSampleRate = running.rawSampleRate
    expected.rawChannels = running.rawChannels
    expected.socketPath = running.socketPath
    expected.maxClients = running.maxClients
    #expect(plan.applied == expected, "\(name)")
    let notice =
      "config reloaded; \(restartOnly.joined(separator: ", ")) take effect at the next restart"
    #expect(plan.notice == (restartOnly.isEmpty ? nil : notice))
  }
}

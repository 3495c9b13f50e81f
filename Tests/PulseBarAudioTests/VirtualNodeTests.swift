import Foundation
import PulseBarCore
import PulseBarTestSupport
import Testing

@testable import PulseBarAudio

/// Every capture stream pulsebar opens is a node marked `node.virtual = true` (KDE Plasma then
/// does not say "pulsebar is using the microphone"), read from the graph with `pw-dump`: the
/// native PipeWire streams and the libpulse ones through pipewire-pulse, the output's monitor
/// stream and the player's. Skipped, saying why, where PipeWire is not installed.
@Suite("Capture nodes are virtual", .serialized)
struct VirtualNodeTests {
  /// The properties of every node in `pw-dump`'s graph whose `media.name` starts with
  /// "pulsebar capture".
  func captureNodes(_ fixture: PulseCaptureFixture) throws -> [[String: Any]] {
    let dump = try fixture.server.run("pw-dump", []).joined(separator: "\n")
    let objects = try JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [[String: Any]]
    return (objects ?? []).compactMap { object in
      guard object["type"] as? String == "PipeWire:Interface:Node",
        let info = object["info"] as? [String: Any],
        let properties = info["props"] as? [String: Any],
        (properties["media.name"] as? String)?.hasPrefix("pulsebar capture") == true
      else { return nil }
      return properties
    }
  }

  /// Follows a playing tone as the player until `recorded` is logged, then expects both the
  /// monitor's node and the player's in the graph, each `node.virtual = true`.
  func expectVirtualNodes(native: Bool, recorded: String) throws {
    let fixture = try PulseCaptureFixture(.pipewire, native: native)
    #expect(fixture.waitRecording("pb_sink_a.monitor"))
    let player = try fixture.server.play(tone: 440, seconds: 10)
    defer { player.send(SIGKILL) }
    fixture.follow(
      player: PlayerAudioIdentity(name: "tone", processID: player.pid, playing: true))
    #expect(fixture.waitDebugLine(recorded), "\(fixture.debugLines)")
    let nodes = try captureNodes(fixture)
    let names = Set(nodes.compactMap { $0["media.name"] as? String })
    #expect(names == ["pulsebar capture", "pulsebar capture (player)"], "\(nodes)")
    for node in nodes {
      let virtual = node["node.virtual"]
      #expect(
        virtual as? Bool == true || virtual as? String == "true",
        "\(node["media.name"] ?? "?"): node.virtual is \(virtual ?? "unset")")
    }
  }

  @Test("native PipeWire: the monitor's and the player's stream nodes")
  func nativeStreams() throws {
    try expectVirtualNodes(
      native: true,
      recorded: "PipeWire: capture stream inactive (the player's streams are recorded)")
  }

  @Test("libpulse through pipewire-pulse: the output's and the player's record stream nodes")
  func pulseStreams() throws {
    try expectVirtualNodes(native: false, recorded: "PulseAudio: recording sink input")
  }
}

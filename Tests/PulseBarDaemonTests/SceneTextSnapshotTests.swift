import Glibc
import PulseBarCore
import Testing

@testable import PulseBarDaemon

/// Text frames of a scripted scene (stopped, playing with beats, corked) through the
/// `text` renderer, against a snapshot beside the tests (`Tests/Snapshots/`). Re-record
/// on purpose with `PULSEBAR_RECORD_SNAPSHOTS=1 swift test --filter SceneTextSnapshot`.
@Suite struct SceneTextSnapshotTests {
  @Test func textFramesThroughMorphBubblesAndRest() throws {
    let lines = renderScript()
    // Facts that hold whatever the snapshot says.
    let morphGlyphs = Set(lines.compactMap { $0.split(separator: " ").dropFirst().first })
    #expect(morphGlyphs.count >= 3, "morph glyphs seen: \(morphGlyphs.sorted())")
    #expect(lines.contains { $0.contains("○") || $0.contains("◦") || $0.contains("°") })

    let path = snapshotPath("scene-text.txt")
    let text = lines.joined(separator: "\n") + "\n"
    if getenv("PULSEBAR_RECORD_SNAPSHOTS") != nil || access(path, R_OK) != 0 {
      writeText(text, to: path)
      Issue.record("recorded \(path); check it and run again")
      return
    }
    let expected = readText(path)
    #expect(text == expected, "differs from \(path)")
  }

  /// Stopped for 0.5 s, playing 0.5…3 s with a beat every 0.5 s, corked from 3 s to
  /// 4 s; one line per frame whose text changed, prefixed by the frame number.
  private func renderScript() -> [String] {
    let configuration = Configuration()
    var scene = Scene(configuration: configuration)
    let renderer = FrameRenderer(format: .text, configuration: configuration)
    let live: [Float] = [0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95, 0.6]
    var bars = [Float](repeating: 0, count: live.count)
    var lines: [String] = []
    for frame in 0..<240 {
      let time = Double(frame) / 60
      let activity: StreamActivity = frame < 30 ? .none : (frame < 180 ? .running : .corked)
      let onset = activity == .running && frame % 30 == 0
      scene.advance(
        to: time, activity: activity, signalPresent: activity == .running, onset: onset)
      live.withUnsafeBufferPointer { live in
        bars.withUnsafeMutableBufferPointer { scene.composeBars(live: live, into: $0) }
      }
      let info = FrameInfo(time: time, source: "test", connected: true)
      let changed = bars.withUnsafeBufferPointer {
        renderer.render(scene: scene, bars: $0, info: info)
      }
      if changed {
        let text = String(decoding: renderer.line.bytes.dropLast(), as: UTF8.self)
        lines.append("\(frame) \(text)")
      }
    }
    return lines
  }

  /// `<package root>/Tests/Snapshots/<name>` (outside every target, so SwiftPM leaves it).
  private func snapshotPath(_ name: String, file: String = #filePath) -> String {
    var parts = file.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(2)  // PulseBarDaemonTests/<file>
    return parts.joined(separator: "/") + "/Snapshots/" + name
  }
}

import PulseBarCore
import Synchronization

/// The whole player path for the `fuzz-bus-message` harness and its corpus test: a real
/// sd-bus message built from the input (``BusMessageFuzzing``) is read at the bus boundary,
/// applied to a ``PlayerRegistry`` as the players' thread applies it, followed by a `Seeked`
/// to the same position, a rate change and status changes spread over an elapsed time the
/// input chooses (up to about 13 years), and the player the registry hands the engine is
/// rendered in a now-playing template (text with Pango markup, waybar and json).
package enum PlayerPathFuzzing {
  /// What came out of the path.
  package struct Outcome: Sendable {
    /// What the bus boundary let in.
    package var boundary: BusMessageFuzzing.Outcome
    /// The position the lines show, seconds.
    package var position: Double?
    /// One rendered line per format, each with its `\n`.
    package var lines: [String]
  }

  /// A template with every field the player's values reach.
  package static let template =
    "{glyph} {bars} {player} {artist} – {title:24} {position}/{length} {progress:8} {state}"

  static let busName = PlayerRegistry.busNamePrefix + "fuzz"

  /// Drives `input` through the path; `nil` when sd-bus refused to build the message.
  package static func drive(_ input: UnsafeRawBufferPointer) -> Outcome? {
    guard let properties = BusMessageFuzzing.properties(input) else { return nil }
    // The input's last four bytes choose the elapsed time, in tenths of a second.
    var tenths: UInt32 = 0
    for byte in input.suffix(4) { tenths = tenths << 8 | UInt32(byte) }
    let elapsed = Double(tenths) / 10
    let start = 1000.0
    var registry = PlayerRegistry()
    registry.appeared(busName, owner: ":1.7")
    registry.loaded(busName)
    registry.apply(properties, to: busName, at: start)
    if let position = properties.position {
      registry.update(busName, position: position, at: start + elapsed / 4)
    }
    registry.update(busName, status: .playing, at: start + elapsed / 3)
    if let rate = properties.rate { registry.update(busName, rate: rate, at: start + elapsed / 2) }
    registry.update(busName, status: .paused, at: start + elapsed)
    registry.update(busName, status: .playing, at: start + elapsed)
    let clock = start + elapsed * 2
    let nowPlaying = registry.nowPlaying
    let lines = renderers.withLock { $0.render(nowPlaying, clock: clock) }
    return Outcome(
      boundary: BusMessageFuzzing.Outcome(properties),
      position: nowPlaying?.playbackPosition?.seconds(at: clock), lines: lines)
  }

  /// One renderer per format and a scene, made once: making them costs far more than a frame,
  /// and the engine too keeps its renderers and hands each a new player.
  private static let renderers = Mutex(Renderers())

  /// The renderers of ``template`` in text (with Pango markup), waybar and json.
  private struct Renderers: ~Copyable {
    let configuration: Configuration
    let scene: Scene
    let formats: [FrameRenderer]
    let bars: [Float]

    init() {
      var configuration = Configuration()
      configuration.text = PlayerPathFuzzing.template
      configuration.markup = .pango
      self.configuration = configuration
      scene = Scene(configuration: configuration)
      formats = [OutputFormat.text, .waybar, .json].map {
        FrameRenderer(format: $0, configuration: configuration)
      }
      bars = [Float](repeating: 0.5, count: configuration.bars)
    }

    /// Each format's line for `nowPlaying` at `clock` (the last written one when it did not
    /// change).
    func render(_ nowPlaying: NowPlaying?, clock: Double) -> [String] {
      let info = FrameInfo(time: 1, source: "fuzz.monitor", connected: true, clock: clock)
      return formats.map { renderer in
        renderer.nowPlaying = nowPlaying
        _ = bars.withUnsafeBufferPointer { renderer.render(scene: scene, bars: $0, info: info) }
        return String(decoding: renderer.line.bytes, as: UTF8.self)
      }
    }
  }
}

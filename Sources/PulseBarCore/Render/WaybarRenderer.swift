/// The `waybar` format: a custom module's JSON on one line,
/// `{"text":…,"alt":state,"class":[state,…],"tooltip":…,"percentage":0-100}`.
///
/// `text` is the state's text template and `tooltip` the tooltip template, both Pango markup
/// in a JSON string. While hidden `text` is empty and the class has `hidden`; `percentage` is
/// then 0, so the hidden line is written once. A tooltip that shows nothing drawn per frame
/// (the default) is rendered only when the state, the track or the source changes.
struct WaybarRenderer {
  var filter = LineFilter()
  /// Templates 0…2: the text while playing, paused, stopped; 3: the tooltip.
  private(set) var templates: TemplateRenderer
  /// The tooltip as last rendered, and the state it was rendered for (`nil`: stale).
  private var tooltip = ByteLine(capacity: 1024)
  private var tooltipState: PlaybackState?
  /// The tooltip changes only with the state, the track and the source.
  private let tooltipIsStatic: Bool

  init(configuration: Configuration) {
    let dialect = LineDialect(format: .waybar, markup: configuration.markup)
    templates = TemplateRenderer(
      texts: PlaybackState.allCases.map(configuration.textTemplate(for:)) + [
        configuration.tooltip
      ],
      fallback: Template.defaultText, dialect: dialect, configuration: configuration)
    tooltipIsStatic = !templates.drawsPerFrame(Self.tooltip)
  }

  /// A new player, track, source or connection.
  mutating func update(nowPlaying: NowPlaying?, source: String, connected: Bool) {
    templates.update(nowPlaying: nowPlaying, source: source, connected: connected)
    tooltipState = nil
  }

  static let tooltip = 3
  /// Where `text`'s value starts: after `{"text":"`.
  private static let textStart = 9

  mutating func render(scene: borrowing Scene, bars: UnsafeBufferPointer<Float>, info: FrameInfo)
    -> Bool
  {
    let state = scene.state
    filter.body.removeAll()
    filter.body.append("{\"text\":\"")
    if !info.hidden {
      templates.render(
        LineColors.glyphTag(state), into: &filter.body, scene: scene, bars: bars,
        clock: info.clock)
      templates.padToWidest(&filter.body, from: Self.textStart)
    }
    filter.body.append("\",\"alt\":\"")
    filter.body.append(state.staticName)
    filter.body.append("\",\"class\":[\"")
    filter.body.append(state.staticName)
    if !info.connected { filter.body.append("\",\"disconnected") }
    if info.hidden { filter.body.append("\",\"hidden") }
    filter.body.append("\"],\"tooltip\":\"")
    if !tooltipIsStatic || tooltipState != state {
      tooltip.removeAll()
      templates.render(Self.tooltip, into: &tooltip, scene: scene, bars: bars, clock: info.clock)
      tooltipState = state
    }
    filter.body.append(tooltip)
    filter.body.append(UInt8(ascii: "\""))
    let percentage = info.hidden ? 0 : Self.percentage(of: bars)
    guard filter.offer(percentage: percentage) else { return false }
    filter.line.append(filter.written)
    filter.line.append(",\"percentage\":")
    filter.line.append(integer: UInt64(percentage))
    filter.line.append("}\n")
    return true
  }

  /// The mean bar height in percent, 0...100.
  private static func percentage(of bars: UnsafeBufferPointer<Float>) -> Int {
    var sum: Float = 0
    for height in bars { sum += height }
    let mean = bars.isEmpty ? 0 : sum / Float(bars.count)
    return Int(min(max(mean, 0), 1) * 100 + 0.5)
  }
}

/// The `text` format: the state's text template (`output.text`, `text_playing`, …) in the
/// line's markup (`output.markup`), or an empty line while hidden (`output.hide_when`).
struct TextLineRenderer {
  var filter = LineFilter()
  /// Templates 0…2: playing, paused, stopped.
  var templates: TemplateRenderer

  init(configuration: Configuration) {
    templates = TemplateRenderer(
      texts: PlaybackState.allCases.map(configuration.textTemplate(for:)),
      fallback: Template.defaultText,
      dialect: LineDialect(format: .text, markup: configuration.markup),
      configuration: configuration)
  }

  mutating func render(scene: borrowing Scene, bars: UnsafeBufferPointer<Float>, info: FrameInfo)
    -> Bool
  {
    filter.body.removeAll()
    if !info.hidden {
      templates.render(
        LineColors.glyphTag(scene.state), into: &filter.body, scene: scene, bars: bars,
        clock: info.clock)
      templates.padToWidest(&filter.body, from: 0)
    }
    guard filter.offer() else { return false }
    filter.line.append(filter.written)
    filter.line.append(UInt8(ascii: "\n"))
    return true
  }
}

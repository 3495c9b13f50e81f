import PulseBarCore

/// libFuzzer entry: the input is a template, then NUL-separated player metadata (title,
/// artist, album, player name). A template that parses is rendered in the text, waybar and
/// json formats in every markup over that metadata, colours on: each line is one
/// `\n`-terminated line, and no control character reaches a plain or Pango text line (a
/// template cannot hold one). A template that does not parse names a column inside it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let parts = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
    String(decoding: $0, as: UTF8.self)
  }
  let text = parts[0]
  do throws(TemplateError) {
    _ = try Template(parsing: text)
  } catch {
    if error.column < 1 || error.column > text.count + 1 {
      fatalError("column \(error.column) outside a template of \(text.count) characters")
    }
    return 0
  }
  func part(_ index: Int) -> String? { index < parts.count ? parts[index] : nil }
  let nowPlaying = NowPlaying(
    player: part(4) ?? "mpv", status: .playing, title: part(1), artist: part(2), album: part(3),
    length: 100, position: 42_000_000)
  for markup in Markup.allCases {
    for format in [OutputFormat.text, .waybar, .json] {
      let line = render(text, format: format, markup: markup, nowPlaying: nowPlaying)
      guard line.last == "\n", !line.dropLast().contains("\n") else {
        fatalError("not one line (\(format), \(markup)): \(line.debugDescription)")
      }
      let plain = format == .text && (markup == .none || markup == .pango)
      if plain
        && line.dropLast().unicodeScalars.contains(where: { UntrustedText.isControl($0.value) })
      {
        fatalError("a control character in the line: \(line.debugDescription)")
      }
    }
  }
  return 0
}

/// One frame of `format` with `template` as the text line and the tooltip, colours on.
private func render(
  _ template: String, format: OutputFormat, markup: Markup, nowPlaying: NowPlaying
) -> String {
  var configuration = Configuration()
  configuration.text = template
  configuration.tooltip = template
  configuration.markup = markup
  configuration.barColors = [
    RGBColor(red: 1, green: 2, blue: 3), RGBColor(red: 4, green: 5, blue: 6),
  ]
  configuration.playingColor = RGBColor(red: 7, green: 8, blue: 9)
  var scene = Scene(configuration: configuration)
  scene.advance(to: 0.1, activity: .running, signalPresent: true, onset: true, player: .playing)
  let renderer = FrameRenderer(format: format, configuration: configuration)
  renderer.nowPlaying = nowPlaying
  let bars: [Float] = [0, 0.25, 0.5, 1]
  _ = bars.withUnsafeBufferPointer {
    renderer.render(
      scene: scene, bars: $0, info: FrameInfo(time: 0.1, source: "fuzz", connected: true, clock: 3))
  }
  return String(decoding: renderer.line.bytes, as: UTF8.self)
}

import PulseBarCore

/// libFuzzer entry: the input is LRC text (invalid UTF-8 replaced, as a lyric file is read),
/// and also a `file://` URI. `LRCParser` reads it: every line's time within
/// 0…``LRCParser/maximumMilliseconds`` and strictly increasing, every text at most
/// ``UntrustedText/maximumBytes``, at most ``LRCParser/maximumLines`` lines, the offset within
/// its bound; the line at a position and the next change agree with each other at each line's
/// time, just before it and at extreme positions. The lyric is rendered as `{lyric}` in text,
/// waybar and json: one line each. `LyricPaths.filePath(fromURI:)` gives an absolute path with
/// no NUL, or nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLRC(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  if let path = LyricPaths.filePath(fromURI: text) {
    guard path.first == "/", !path.utf8.contains(0) else { fatalError("bad path \(path)") }
  }
  guard let lyric = LRCParser.parse(text) else { return 0 }
  check(lyric)
  let nowPlaying = NowPlaying(
    player: "mpv", status: .playing, title: "t", length: 1e6, position: 1_500_000,
    positionTime: 0, lyric: lyric)
  for format in [OutputFormat.text, .waybar, .json] {
    for clock in [0, SyncedLyric.seconds(lyric.lines[lyric.lines.count / 2].milliseconds)] {
      let line = render(format: format, nowPlaying: nowPlaying, clock: clock)
      guard line.last == "\n", !line.dropLast().contains("\n") else {
        fatalError("not one line (\(format)): \(line.debugDescription)")
      }
    }
  }
  return 0
}

private func check(_ lyric: SyncedLyric) {
  guard !lyric.lines.isEmpty, lyric.lines.count <= LRCParser.maximumLines else {
    fatalError("\(lyric.lines.count) lines")
  }
  guard abs(lyric.offsetMilliseconds) <= LRCParser.maximumOffset else {
    fatalError("offset \(lyric.offsetMilliseconds)")
  }
  var previous: Int64 = -1
  for (index, line) in lyric.lines.enumerated() {
    guard line.milliseconds > previous, line.milliseconds <= LRCParser.maximumMilliseconds else {
      fatalError("line \(index) at \(line.milliseconds) ms after \(previous)")
    }
    guard line.text.utf8.count <= UntrustedText.maximumBytes else {
      fatalError("line \(index) holds \(line.text.utf8.count) bytes")
    }
    previous = line.milliseconds
    let time = SyncedLyric.seconds(line.milliseconds)
    guard lyric.lineIndex(at: time) == index else { fatalError("line \(index) not at its time") }
    if index > 0, lyric.lineIndex(at: time - 0.0005) != index - 1 {
      fatalError("line \(index - 1) not just before \(index)")
    }
    if index > 0, lyric.nextChange(after: time - 0.0005) != time {
      fatalError("no change at line \(index)")
    }
  }
  for position in [-Double.infinity, -1, .nan, 1e300, .infinity] {
    _ = lyric.text(at: position)
    _ = lyric.nextChange(after: position)
  }
}

/// `{lyric}` as the text line and the tooltip.
private let configuration = {
  var configuration = Configuration()
  configuration.text = "{glyph} ({lyric}) {lyric:12}"
  configuration.tooltip = "{lyric}"
  configuration.markup = .pango
  return configuration
}()

/// One renderer per format, kept across inputs as the engine keeps them (making them per
/// input was most of the harness's time).
nonisolated(unsafe) private let renderers = [OutputFormat.text, .waybar, .json].map {
  ($0, FrameRenderer(format: $0, configuration: configuration))
}

/// One frame of `format` at monotonic `clock`.
private func render(format: OutputFormat, nowPlaying: NowPlaying, clock: Double) -> String {
  var scene = Scene(configuration: configuration)
  scene.advance(to: 0.1, activity: .running, signalPresent: true, onset: false, player: .playing)
  let renderer = renderers.first { $0.0 == format }!.1
  renderer.nowPlaying = nowPlaying
  let bars: [Float] = [0, 0.5]
  _ = bars.withUnsafeBufferPointer {
    renderer.render(
      scene: scene, bars: $0,
      info: FrameInfo(time: 0.1, source: "fuzz", connected: true, clock: clock))
  }
  return String(decoding: renderer.line.bytes, as: UTF8.self)
}

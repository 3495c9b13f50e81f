/// The `json` format: the whole scene for GUI widgets and scripts,
/// `{"seq":…,"time":…,"state":…,"connected":…,"source":…,<player fields>,"morph":…,
/// "morph_shape":…,"bars":[…],"bubbles":[…]}`.
///
/// The change filter leaves out `seq` and `time`, which change every frame by definition, so
/// a still scene writes nothing. The player's fields carry the raw values, JSON-escaped once
/// per change; `position` (seconds) is extrapolated per frame, and `lyric` is the synced
/// lyric's line at that position (left out when there is none). With `colors.from_art`,
/// `art_colors` holds the track's palette: `{"gradient":[…],"playing":…,"paused":…}`.
struct JSONLineRenderer {
  var filter = LineFilter()
  private let bubbleGlyphs: GlyphTable
  /// The source name, JSON-escaped once when it changes.
  private var sourceJSON = ByteLine()
  /// The player's fields (`,"player":…`), escaped once per change.
  private var playerJSON = ByteLine()
  private var position: PlaybackPosition?
  /// The track's synced lyric, each line JSON-escaped once.
  private var lyricLines = LyricLines(widths: [0], dialect: .json)
  /// `morph_shape`'s JSON for `shapeMorph`: the shape only changes while the morph animates.
  private var shapeJSON = ByteLine()
  private var shapeMorph: Float = .nan

  init(configuration: Configuration) {
    bubbleGlyphs = TextGlyphs(configuration, encoding: .json).bubbles
  }

  /// A new player or track (rare: allocates freely).
  mutating func update(nowPlaying: NowPlaying?, source: String) {
    sourceJSON.removeAll()
    UntrustedText.append(source, as: .json, to: &sourceJSON)
    playerJSON.removeAll()
    position = nowPlaying?.playbackPosition
    lyricLines.update(nowPlaying?.lyric)
    guard let nowPlaying else { return }
    for (name, value) in [
      ("player", nowPlaying.player), ("title", nowPlaying.title), ("artist", nowPlaying.artist),
      ("album", nowPlaying.album),
    ] {
      guard let value else { continue }
      playerJSON.append(Array(",\"\(name)\":\"".utf8))
      UntrustedText.append(value, as: .json, to: &playerJSON)
      playerJSON.append(UInt8(ascii: "\""))
    }
    if let length = nowPlaying.length {
      playerJSON.append(",\"length\":")
      playerJSON.append(length, decimals: 3)
    }
    // MPRIS `Volume` as the player says it (1 is 100 %), bounded at the bus.
    if let volume = nowPlaying.volume {
      playerJSON.append(",\"volume\":")
      playerJSON.append(volume, decimals: 3)
    }
    if let palette = nowPlaying.artPalette {
      let bars = palette.bars.map { "\"\($0)\"" }.joined(separator: ",")
      playerJSON.append(
        Array(
          (",\"art_colors\":{\"gradient\":[\(bars)],\"playing\":\"\(palette.glyph)\","
            + "\"paused\":\"\(palette.glyphDimmed)\"}").utf8))
    }
  }

  mutating func render(scene: borrowing Scene, bars: UnsafeBufferPointer<Float>, info: FrameInfo)
    -> Bool
  {
    filter.body.removeAll()
    appendBody(scene: scene, bars: bars, info: info)
    guard filter.offer() else { return false }
    filter.line.append("{\"seq\":")
    filter.line.append(integer: filter.sequence)
    filter.line.append(",\"time\":")
    filter.line.append(info.time, decimals: 3)
    filter.line.append(filter.written)
    filter.line.append(UInt8(ascii: "\n"))
    return true
  }

  /// Everything after `"time":…`.
  private mutating func appendBody(
    scene: borrowing Scene, bars: UnsafeBufferPointer<Float>, info: FrameInfo
  ) {
    filter.body.append(",\"state\":\"")
    filter.body.append(scene.state.staticName)
    filter.body.append(info.connected ? "\",\"connected\":true" : "\",\"connected\":false")
    filter.body.append(",\"source\":\"")
    filter.body.append(sourceJSON)
    filter.body.append(UInt8(ascii: "\""))
    filter.body.append(playerJSON)
    if let position {
      filter.body.append(",\"position\":")
      let seconds = position.seconds(at: info.clock ?? position.sampledAt)
      filter.body.append(seconds, decimals: 3)
      if let line = lyricLines.line(at: seconds) {
        filter.body.append(",\"lyric\":\"")
        lyricLines.append(line, width: 0, into: &filter.body)
        filter.body.append(UInt8(ascii: "\""))
      }
    }
    filter.body.append(",\"morph\":")
    filter.body.append(Double(scene.morph), decimals: 3)
    filter.body.append(",\"morph_shape\":")
    if scene.morph != shapeMorph {
      shapeMorph = scene.morph
      shapeJSON.removeAll()
      Self.appendShape(MorphShape(morph: scene.morph), into: &shapeJSON)
    }
    filter.body.append(shapeJSON)
    filter.body.append(",\"bars\":[")
    for (index, height) in bars.enumerated() {
      if index > 0 { filter.body.append(UInt8(ascii: ",")) }
      filter.body.append(Double(height), decimals: 3)
    }
    filter.body.append("],\"bubbles\":[")
    for (index, bubble) in scene.bubbles.enumerated() {
      if index > 0 { filter.body.append(UInt8(ascii: ",")) }
      filter.body.append("{\"id\":")
      filter.body.append(integer: bubble.id)
      filter.body.append(",\"x\":")
      filter.body.append(Double(bubble.x), decimals: 3)
      filter.body.append(",\"y\":")
      filter.body.append(Double(bubble.y), decimals: 3)
      filter.body.append(",\"scale\":")
      filter.body.append(Double(bubble.scale), decimals: 3)
      filter.body.append(",\"alpha\":")
      filter.body.append(Double(bubble.alpha), decimals: 3)
      filter.body.append(",\"glyph\":\"")
      if !bubbleGlyphs.isEmpty {
        bubbleGlyphs.withGlyph(bubble.glyphIndex) { filter.body.append($0) }
      }
      filter.body.append("\"}")
    }
    filter.body.append("]}")
  }

  /// The two quads as `[[[x,y]×4],[[x,y]×4]]`.
  private static func appendShape(_ shape: MorphShape, into output: inout ByteLine) {
    output.append(UInt8(ascii: "["))
    for quad in 0..<2 {
      if quad > 0 { output.append(UInt8(ascii: ",")) }
      output.append(UInt8(ascii: "["))
      for corner in 0..<4 {
        let point = shape[quad, corner]
        if corner > 0 { output.append(UInt8(ascii: ",")) }
        output.append(UInt8(ascii: "["))
        output.append(Double(point.x), decimals: 3)
        output.append(UInt8(ascii: ","))
        output.append(Double(point.y), decimals: 3)
        output.append(UInt8(ascii: "]"))
      }
      output.append(UInt8(ascii: "]"))
    }
    output.append(UInt8(ascii: "]"))
  }
}

/// What a frame says besides the scene and the bars.
package struct FrameInfo: Sendable {
  /// Seconds of audio since the start.
  package var time: Double
  /// The source being visualized (a PulseAudio source name, a file path).
  package var source: String
  /// Connected to the audio server (always true for files).
  package var connected: Bool

  package init(time: Double, source: String, connected: Bool) {
    self.time = time
    self.source = source
    self.connected = connected
  }
}

/// Renders frames of one format into a reusable line and tells whether the
/// line differs from the last one written (only those are written).
///
/// One per distinct (format, bar count, frame rate) consumer. For `json` the comparison
/// leaves out `seq` and `time`, which change every frame by definition, so a
/// still scene writes nothing in every format. `seq` counts the lines this
/// renderer produced, starting at 1. Confined to the engine thread.
package final class FrameRenderer {
  package let format: OutputFormat
  /// The line to write, `\n`-terminated, valid after `render` returned true.
  package private(set) var line = ByteLine(capacity: 1024)
  private var body = ByteLine(capacity: 1024)
  private var previousBody = ByteLine(capacity: 1024)
  private var hasPrevious = false
  private var sequence: UInt64 = 0
  /// The text glyphs as they are (text format), as Pango markup (text with `markup = pango`),
  /// JSON-escaped (waybar) and as Pango markup inside JSON (waybar with markup): escaped once
  /// here, never per frame.
  private let plainGlyphs: TextGlyphs
  private let pangoGlyphs: TextGlyphs
  private let jsonGlyphs: TextGlyphs
  private let pangoJSONGlyphs: TextGlyphs
  private let rawMax: Float
  private let markup: Markup
  /// Cells of the bubble area in the text and waybar formats (`bubbles.max`).
  private let bubbleSlots: Int
  /// waybar: the `percentage` of the last line written (see ``percentageStep``).
  private var previousPercentage: Int = 0
  private var sourceName = ""
  /// The source name, JSON-escaped once when it changes.
  private var sourceJSON = ByteLine()
  /// `morph_shape`'s JSON for `shapeMorph`: the shape only changes while the morph animates.
  private var shapeJSON = ByteLine()
  private var shapeMorph: Float = .nan
  /// The active MPRIS player and its track (the pipeline sets it when it changes, not per
  /// frame); the texts below are made from it once per change.
  package var nowPlaying: NowPlaying? {
    didSet {
      guard nowPlaying != oldValue else { return }
      updatePlayerTexts()
      tooltips.removeAll()
    }
  }
  /// json's player fields (`,"player":…`), escaped once per change.
  private var playerJSON = ByteLine()
  /// The title fitted to `titleWidth` cells and escaped for each line that shows it (see
  /// ``UntrustedText``): a text line, a Pango text line, and Pango markup in JSON (waybar draws
  /// a custom module's text as markup whatever `output.markup` says, so a title's `&` must be
  /// escaped there in either case).
  private var titleText = (textLine: ByteLine(), pango: ByteLine(), pangoInJSON: ByteLine())
  private let titleWidth: Int
  private let tooltipTemplate: TooltipTemplate
  /// waybar's tooltips, JSON-escaped, one per state × connected (see ``tooltipIndex``): made
  /// when the source or the player changes, so a state change costs nothing.
  private var tooltips: [ByteLine] = []

  package init(format: OutputFormat, configuration: Configuration) {
    self.format = format
    plainGlyphs = TextGlyphs(configuration, encoding: .plain)
    pangoGlyphs = TextGlyphs(configuration, encoding: .pango)
    jsonGlyphs = TextGlyphs(configuration, encoding: .json)
    pangoJSONGlyphs = TextGlyphs(configuration, encoding: .pangoInJSON)
    rawMax = Float(configuration.rawMax)
    markup = configuration.markup
    bubbleSlots = max(0, configuration.bubbleMax)
    titleWidth = configuration.titleWidth
    tooltipTemplate = TooltipTemplate(configuration.tooltip)
    if titleWidth > 0 { updatePlayerTexts() }
  }

  /// A waybar line whose only change is `percentage`, by less than this many points, is not
  /// written: waybar redraws the module for every line, and a percentage-only line (30 % of
  /// them before) shows nothing new unless the module maps `percentage` to format icons,
  /// where 5 points is finer than any icon set.
  package static let percentageStep = 5

  /// Forgets the last line, so the next render is written even if unchanged (a new consumer).
  package func forgetPrevious() { hasPrevious = false }

  /// Renders the frame; returns true when `line` holds a line that differs from the last one.
  package func render(scene: borrowing Scene, bars: UnsafeBufferPointer<Float>, info: FrameInfo)
    -> Bool
  {
    if info.source != sourceName {
      sourceName = info.source
      sourceJSON.removeAll()
      UntrustedText.append(info.source, as: .json, to: &sourceJSON)
      tooltips.removeAll()
    }
    // Rendered into a local: every append to a class's stored property would pay a
    // dynamic exclusivity check, hundreds of them per line.
    var output = ByteLine()
    swap(&output, &body)
    output.removeAll()
    switch format {
    case .text:
      appendText(
        scene: scene, bars: bars, into: &output,
        glyphs: markup == .pango ? pangoGlyphs : plainGlyphs)
    case .raw:
      appendRaw(bars: bars, into: &output)
    case .waybar:
      appendWaybar(scene: scene, bars: bars, info: info, into: &output)
    case .json:
      appendJSONBody(scene: scene, bars: bars, info: info, into: &output)
    }
    swap(&output, &body)
    // waybar's body ends before `percentage`, which is compared apart (see `percentageStep`).
    let percentage = format == .waybar ? Self.percentage(of: bars) : 0
    if hasPrevious && body == previousBody
      && abs(percentage - previousPercentage) < Self.percentageStep
    {
      return false
    }
    swap(&body, &previousBody)
    hasPrevious = true
    previousPercentage = percentage
    sequence += 1
    line.removeAll()
    if format == .json {
      line.append("{\"seq\":")
      line.append(integer: sequence)
      line.append(",\"time\":")
      line.append(info.time, decimals: 3)
      line.append(previousBody)
    } else {
      line.append(previousBody)
    }
    if format == .waybar {
      line.append(",\"percentage\":")
      line.append(integer: UInt64(percentage))
      line.append(UInt8(ascii: "}"))
    }
    line.append(UInt8(ascii: "\n"))
    return true
  }

  // MARK: - Formats

  private func appendText(
    scene: borrowing Scene, bars: UnsafeBufferPointer<Float>, into output: inout ByteLine,
    glyphs: TextGlyphs
  ) {
    glyphs.morph.withGlyph(MorphGlyph.frameIndex(for: scene.morph, frames: glyphs.morph.count)) {
      output.append($0)
    }
    output.append(UInt8(ascii: " "))
    let levels = glyphs.bars.count
    for height in bars {
      let level = min(levels - 1, max(0, Int(height * Float(levels))))
      glyphs.bars.withGlyph(level) { output.append($0) }
    }
    // The bubble area is always `bubbles.max` cells, padded with figure spaces, so the line
    // keeps one width in every state (neighbouring bar modules do not shift); with
    // `bubbles.max = 0` there is no area at all. The title, when asked for, is as fixed.
    if bubbleSlots > 0 && !glyphs.bubbles.isEmpty {
      appendBubbles(scene: scene, into: &output, glyphs: glyphs)
    }
    guard titleWidth > 0 else { return }
    output.append(UInt8(ascii: " "))
    switch glyphs.encoding {
    case .plain: output.append(titleText.textLine)
    case .pango: output.append(titleText.pango)
    case .json, .pangoInJSON: output.append(titleText.pangoInJSON)
    }
  }

  private func appendBubbles(
    scene: borrowing Scene, into output: inout ByteLine, glyphs: TextGlyphs
  ) {
    output.append(UInt8(ascii: " "))
    for bubble in scene.bubbles {
      if glyphs.encoding == .pango || glyphs.encoding == .pangoInJSON {
        // Pango fades the glyph; inside JSON the quotes are escaped for the string around it.
        let inJSON = glyphs.encoding == .pangoInJSON
        output.append(inJSON ? "<span alpha=\\\"" : "<span alpha=\"")
        output.append(integer: UInt64(max(1, min(100, bubble.alpha * 100 + 0.5))))
        output.append(inJSON ? "%\\\">" : "%\">")
        glyphs.bubbles.withGlyph(bubble.glyphIndex) { output.append($0) }
        output.append("</span>")
      } else {
        glyphs.bubbles.withGlyph(bubble.glyphIndex) { output.append($0) }
      }
    }
    var padding = bubbleSlots - scene.bubbles.count
    while padding > 0 {
      output.append(Self.bubblePadding)
      padding -= 1
    }
  }

  /// What fills the free bubble cells: U+2007 FIGURE SPACE. One cell wide (as every default
  /// bubble glyph), in DejaVu Sans and Sans Mono, and not whitespace to a bar that trims lines.
  package static let bubblePadding: StaticString = "\u{2007}"

  /// cava's raw ASCII: stereo mirrors the left channel (high→low) against the right (low→high).
  private func appendRaw(bars: UnsafeBufferPointer<Float>, into body: inout ByteLine) {
    let count = bars.count
    let stereoHalf = count / 2
    for position in 0..<count {
      var index = position
      if mirrored && position < stereoHalf { index = stereoHalf - 1 - position }
      body.append(integer: UInt64(min(max(bars[index], 0), 1) * rawMax + 0.5))
      body.append(UInt8(ascii: ";"))
    }
  }

  /// Set by the engine for stereo layouts: the raw format mirrors the left half.
  package var mirrored = false

  private func appendWaybar(
    scene: borrowing Scene, bars: UnsafeBufferPointer<Float>, info: FrameInfo,
    into body: inout ByteLine
  ) {
    let state = scene.state
    body.append("{\"text\":\"")
    appendText(
      scene: scene, bars: bars, into: &body,
      glyphs: markup == .pango ? pangoJSONGlyphs : jsonGlyphs)
    body.append("\",\"alt\":\"")
    body.append(state.staticName)
    body.append("\",\"class\":[\"")
    body.append(state.staticName)
    body.append(info.connected ? "\"]" : "\",\"disconnected\"]")
    body.append(",\"tooltip\":\"")
    if tooltips.isEmpty { renderTooltips() }
    body.append(tooltips[Self.tooltipIndex(state: state, connected: info.connected)])
    body.append(UInt8(ascii: "\""))
    // `,"percentage":N}` follows in `render`.
  }

  /// The mean bar height in percent, 0...100.
  private static func percentage(of bars: UnsafeBufferPointer<Float>) -> Int {
    var sum: Float = 0
    for height in bars { sum += height }
    let mean = bars.isEmpty ? 0 : sum / Float(bars.count)
    return Int(min(max(mean, 0), 1) * 100 + 0.5)
  }

  /// Everything after `"time":…` (which the comparison leaves out).
  private func appendJSONBody(
    scene: borrowing Scene, bars: UnsafeBufferPointer<Float>, info: FrameInfo,
    into body: inout ByteLine
  ) {
    body.append(",\"state\":\"")
    body.append(scene.state.staticName)
    body.append(info.connected ? "\",\"connected\":true" : "\",\"connected\":false")
    body.append(",\"source\":\"")
    body.append(sourceJSON)
    body.append(UInt8(ascii: "\""))
    body.append(playerJSON)
    body.append(",\"morph\":")
    body.append(Double(scene.morph), decimals: 3)
    body.append(",\"morph_shape\":")
    if scene.morph != shapeMorph {
      shapeMorph = scene.morph
      shapeJSON.removeAll()
      Self.appendShape(MorphShape(morph: scene.morph), into: &shapeJSON)
    }
    body.append(shapeJSON)
    body.append(",\"bars\":[")
    for (index, height) in bars.enumerated() {
      if index > 0 { body.append(UInt8(ascii: ",")) }
      body.append(Double(height), decimals: 3)
    }
    body.append("],\"bubbles\":[")
    for (index, bubble) in scene.bubbles.enumerated() {
      if index > 0 { body.append(UInt8(ascii: ",")) }
      body.append("{\"id\":")
      body.append(integer: bubble.id)
      body.append(",\"x\":")
      body.append(Double(bubble.x), decimals: 3)
      body.append(",\"y\":")
      body.append(Double(bubble.y), decimals: 3)
      body.append(",\"scale\":")
      body.append(Double(bubble.scale), decimals: 3)
      body.append(",\"alpha\":")
      body.append(Double(bubble.alpha), decimals: 3)
      body.append(",\"glyph\":\"")
      if !jsonGlyphs.bubbles.isEmpty {
        jsonGlyphs.bubbles.withGlyph(bubble.glyphIndex) { body.append($0) }
      }
      body.append("\"}")
    }
    body.append("]}")
  }
}

// MARK: - The player's texts

extension FrameRenderer {
  /// Makes json's player fields and the fitted title for ``nowPlaying`` (a new track or player:
  /// rare, so these allocate freely).
  fileprivate func updatePlayerTexts() {
    playerJSON.removeAll()
    if let nowPlaying {
      func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        playerJSON.append(",\"")
        playerJSON.append(name)
        playerJSON.append("\":\"")
        UntrustedText.append(value, as: .json, to: &playerJSON)
        playerJSON.append(UInt8(ascii: "\""))
      }
      field("player", nowPlaying.player)
      field("title", nowPlaying.title)
      field("artist", nowPlaying.artist)
      field("album", nowPlaying.album)
      if let length = nowPlaying.length {
        playerJSON.append(",\"length\":")
        playerJSON.append(length, decimals: 3)
      }
    }
    guard titleWidth > 0 else { return }
    let fitted = TextCells.fit(UntrustedText.sanitized(nowPlaying?.title ?? ""), cells: titleWidth)
    titleText.textLine.removeAll()
    UntrustedText.append(fitted, as: .textLine, to: &titleText.textLine)
    titleText.pango.removeAll()
    UntrustedText.append(fitted, as: .pango, to: &titleText.pango)
    titleText.pangoInJSON.removeAll()
    UntrustedText.append(fitted, as: .pangoInJSON, to: &titleText.pangoInJSON)
  }

  /// Where the tooltip for `state` and `connected` is in ``tooltips``.
  fileprivate static func tooltipIndex(state: PlaybackState, connected: Bool) -> Int {
    let row =
      switch state {
      case .playing: 0
      case .paused: 1
      case .stopped: 2
      }
    return row * 2 + (connected ? 1 : 0)
  }

  /// Renders ``tooltips`` from the template, for every state, connected or not. waybar shows a
  /// custom module's tooltip as Pango markup, so the values (a title with `&`, the source's
  /// name) are escaped as ``UntrustedText`` says; the template's own text is not, so a template
  /// may use markup.
  fileprivate func renderTooltips() {
    tooltips = Array(repeating: ByteLine(), count: 6)
    for state in PlaybackState.allCases {
      for connected in [false, true] {
        tooltips[Self.tooltipIndex(state: state, connected: connected)] = renderTooltip(
          state: state, connected: connected)
      }
    }
  }

  private func renderTooltip(state: PlaybackState, connected: Bool) -> ByteLine {
    let nowPlaying = nowPlaying
    let source = sourceName
    let pieces = tooltipTemplate.render { field in
      switch field {
      case .state: return "\(state.staticTitle)"
      case .player: return nowPlaying?.player
      case .title: return nowPlaying?.title
      case .artist: return nowPlaying?.artist
      case .album: return nowPlaying?.album
      case .source: return connected ? source : "audio server unreachable"
      }
    }
    var tooltip = ByteLine()
    for piece in pieces {
      if piece.isValue {
        UntrustedText.append(piece.text, as: .pangoInJSON, to: &tooltip)
      } else {
        tooltip.appendJSONEscaped(piece.text.utf8)
      }
    }
    return tooltip
  }
}

extension FrameRenderer {
  /// The two quads as `[[[x,y]×4],[[x,y]×4]]`.
  fileprivate static func appendShape(_ shape: MorphShape, into output: inout ByteLine) {
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

extension PlaybackState {
  /// The state's name as a static string (no allocation when rendering).
  var staticName: StaticString {
    switch self {
    case .playing: "playing"
    case .paused: "paused"
    case .stopped: "stopped"
    }
  }

  /// The state's name for people (tooltips).
  var staticTitle: StaticString {
    switch self {
    case .playing: "Playing"
    case .paused: "Paused"
    case .stopped: "Stopped"
    }
  }
}

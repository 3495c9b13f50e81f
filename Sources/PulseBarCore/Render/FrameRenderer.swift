/// Renders frames of one format into a reusable line and tells whether the line differs from
/// the last one written (only those are written).
///
/// One per distinct (format, bar count, frame rate) consumer; it hands the frame to that
/// format's renderer (``TextLineRenderer``, ``WaybarRenderer``, ``JSONLineRenderer``,
/// ``RawLineRenderer``), each with the shared change filter (``LineFilter``) and, for the text
/// formats, the shared template engine (``TemplateRenderer``). `seq` counts the lines this
/// renderer produced, starting at 1, or after the last of the pipeline it replaced (a reload). Not `Sendable`: the compiler keeps each renderer on one
/// thread at a time (the engine's).
package final class FrameRenderer {
  package let format: OutputFormat
  /// The format's renderer: exactly one of these is set. Each renders through one mutating
  /// call on the stored value (in place: no copy, one exclusivity check per frame).
  private var text: TextLineRenderer?
  private var waybar: WaybarRenderer?
  private var json: JSONLineRenderer?
  private var raw: RawLineRenderer?
  private var sourceName = ""
  private var connected = true

  /// The active MPRIS player and its track (the pipeline sets it when it changes, not per
  /// frame); the texts are made from it once per change.
  package var nowPlaying: NowPlaying? {
    didSet {
      guard nowPlaying != oldValue else { return }
      update()
    }
  }

  /// Set by the engine for stereo layouts: the raw format mirrors the left half.
  package var mirrored = false {
    didSet { raw?.mirrored = mirrored }
  }

  package init(format: OutputFormat, configuration: Configuration) {
    self.format = format
    switch format {
    case .text: text = TextLineRenderer(configuration: configuration)
    case .waybar: waybar = WaybarRenderer(configuration: configuration)
    case .json: json = JSONLineRenderer(configuration: configuration)
    case .raw: raw = RawLineRenderer(rawMax: Float(configuration.rawMax), mirrored: false)
    }
    update()
  }

  /// The line to write, `\n`-terminated, valid after `render` returned true.
  package var line: ByteLine {
    text?.filter.line ?? waybar?.filter.line ?? json?.filter.line ?? raw?.filter.line
      ?? ByteLine()
  }

  /// True when a template of this format shows the player's position or progress.
  package var showsPosition: Bool {
    text?.templates.showsPosition ?? waybar?.templates.showsPosition ?? false
  }

  /// When a scrolling field (`{title:24:scroll}`) next moves after `clock` (monotonic seconds),
  /// or `nil` when none scrolls. The caller asks only while the line plays.
  package func nextScrollStep(after clock: Double) -> Double? {
    text?.templates.nextScrollStep(after: clock) ?? waybar?.templates.nextScrollStep(after: clock)
  }

  /// True when this format shows the lyric line: json always, the others when a template does.
  package var showsLyric: Bool {
    json != nil || text?.templates.showsLyric == true || waybar?.templates.showsLyric == true
  }

  /// What fills free cells in the text formats: U+2007 FIGURE SPACE. One cell wide (as every
  /// default bubble glyph), in DejaVu Sans and Sans Mono, and not whitespace to a bar that trims
  /// lines.
  package static let bubblePadding = TemplateRenderer.figureSpace

  /// A waybar line whose only change is `percentage`, by less than this, is not written.
  package static let percentageStep = LineFilter.percentageStep

  /// Forgets the last line, so the next render is written even if unchanged (a new consumer).
  package func forgetPrevious() {
    text?.filter.forget()
    waybar?.filter.forget()
    json?.filter.forget()
    raw?.filter.forget()
  }

  /// Lines rendered so far: json's `seq` of the last one.
  package var sequence: UInt64 {
    text?.filter.sequence ?? waybar?.filter.sequence ?? json?.filter.sequence
      ?? raw?.filter.sequence ?? 0
  }

  /// Numbers lines on from `last` (a reload's renderer goes on from the old ones').
  package func continueSequence(after last: UInt64) {
    text?.filter.continueSequence(after: last)
    waybar?.filter.continueSequence(after: last)
    json?.filter.continueSequence(after: last)
    raw?.filter.continueSequence(after: last)
  }

  /// Renders the frame; returns true when `line` holds a line that differs from the last one.
  package func render(scene: borrowing Scene, bars: UnsafeBufferPointer<Float>, info: FrameInfo)
    -> Bool
  {
    if info.source != sourceName || info.connected != connected {
      sourceName = info.source
      connected = info.connected
      update()
    }
    switch format {
    case .text: return text!.render(scene: scene, bars: bars, info: info)
    case .waybar: return waybar!.render(scene: scene, bars: bars, info: info)
    case .json: return json!.render(scene: scene, bars: bars, info: info)
    case .raw: return raw!.render(bars: bars)
    }
  }

  /// The cells every text line of the `text` and `waybar` formats is padded to from the
  /// first frame (``TemplateRenderer/knownWidth``): `nil` for json and raw, and when a
  /// template shows text of unbounded width.
  package var knownWidth: Int? {
    text?.templates.knownWidth ?? waybar?.templates.knownWidth
  }

  /// Hands a new player, source or connection to the format's renderer (rare).
  private func update() {
    text?.templates.update(nowPlaying: nowPlaying, source: sourceName, connected: connected)
    waybar?.update(nowPlaying: nowPlaying, source: sourceName, connected: connected)
    json?.update(nowPlaying: nowPlaying, source: sourceName)
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

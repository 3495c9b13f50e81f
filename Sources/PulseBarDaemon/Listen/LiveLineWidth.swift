import PulseBarCore

/// The display width (cells) of the daemon's live lines, which `pulsebar listen` pads its
/// offline line to, so a bar module keeps its width while the daemon is away.
///
/// Before the first frame arrives it is the width every live line has when the template's width
/// is known (``FrameRenderer/knownWidth``: no unbounded text), worked out from the daemon's
/// rendering keys (``ListenConfig/renderingKeys``); else the width the last listen of this
/// socket and format saw (``ListenWidthMemory``); else a stopped line's. Each frame then
/// replaces it with what the daemon really sends: the visible cells (``VisibleCells``) of a text line without its
/// markup (Pango, polybar or ANSI, read from the line: a listener does not know the daemon's
/// `output.markup`), or of waybar's `text` without Pango's. Only the text and waybar formats
/// have a width; json and raw are never padded. A padded line stays within
/// ``maximumBytes``: i3blocks cuts a longer one, inside a character.
package struct LiveLineWidth: Sendable {
  let format: OutputFormat
  /// The last width learned (or the expected one); `nil` for formats without a width.
  package private(set) var cells: Int?
  /// The template's width is known beforehand: nothing needs remembering.
  package let isKnown: Bool
  /// The bars it was worked out for.
  package let bars: Int

  /// `remembered`: the width a listen of this socket and format last saw, used when the
  /// template's own width is not known, or `configuration` is not the daemon's (`readsDaemon`
  /// false: its file has a bad rendering key, so the defaults stand in).
  package init(
    format: OutputFormat, bars: Int, configuration: Configuration, remembered: Int? = nil,
    readsDaemon: Bool = true
  ) {
    self.format = format
    self.bars = bars
    let (cells, known) = Self.expected(format: format, bars: bars, configuration: configuration)
    isKnown = known && readsDaemon
    self.cells = isKnown ? cells : remembered ?? cells
  }

  /// Learns the width of `line` (one frame, without its newline); an empty text (a hidden
  /// module, `output.hide_when`) and a line that is not a frame keep the last width.
  package mutating func learn(from line: some Collection<UInt8>) {
    guard cells != nil, let width = Self.cells(of: line, format: format) else { return }
    if width > 0 { cells = width }
  }

  /// The most bytes of a padded line: i3blocks keeps 1,024 with the newline.
  package static let maximumBytes = BoundedLine.i3blocksBytes

  /// `text` padded with figure spaces (U+2007, as the renderer pads) to the live width, all
  /// within ``maximumBytes`` (`text` is cut first, between characters).
  package func padded(_ text: String) -> String {
    let text = UntrustedText.capped(text, maximumBytes: Self.maximumBytes)
    guard let cells else { return text }
    let room = (Self.maximumBytes - text.utf8.count) / TextCells.padding.utf8.count
    let missing = min(cells - TextCells.width(of: text), room)
    guard missing > 0 else { return text }
    return text + String(repeating: TextCells.padding, count: missing)
  }

  /// The width of a stopped frame with no bars up, rendered as the daemon would render it (the
  /// known width when there is one: the renderer pads every line to it), and whether it is the
  /// template's known width.
  static func expected(format: OutputFormat, bars: Int, configuration: Configuration) -> (
    Int?, known: Bool
  ) {
    guard format == .text || format == .waybar else { return (nil, false) }
    var configuration = configuration
    configuration.bars = max(1, bars)
    var scene = Scene(configuration: configuration)
    scene.advance(to: 0, activity: .none, signalPresent: false, onset: false)
    let renderer = FrameRenderer(format: format, configuration: configuration)
    let heights = [Float](repeating: 0, count: configuration.bars)
    let info = FrameInfo(time: 0, source: "", connected: true)
    let written = heights.withUnsafeBufferPointer {
      renderer.render(scene: scene, bars: $0, info: info)
    }
    guard written else { return (nil, false) }
    return (cells(of: renderer.line.bytes.dropLast(), format: format), renderer.knownWidth != nil)
  }

  /// The cells a bar shows of one line: the text line without its markup, or waybar's `text`
  /// without Pango's.
  static func cells(of line: some Collection<UInt8>, format: OutputFormat) -> Int? {
    switch format {
    case .text: return VisibleCells.count(line, markup: VisibleCells.guessedMarkup(of: line))
    case .waybar:
      return WaybarText.text(of: Array(line)).map { VisibleCells.count($0.utf8, markup: .pango) }
    case .json, .raw: return nil
    }
  }
}

/// The widest line a template drew since the track changed, and the padding that brings later
/// lines to that width: a template keeps one width while fields come and go (playing, paused
/// and stopped). Widths are the visible cells in the line's markup (``VisibleCells``).
struct WidestLine {
  /// How the line's markup is read when its cells are counted.
  private let markup: VisibleCells.Markup
  /// The widest line seen since the track changed (cells).
  private(set) var cells = 0
  /// The least any line is padded to, track change or not: the template's known width
  /// (``TemplateRenderer/knownWidth``), 0 when it has none.
  var floor = 0
  /// The title, artist and album that line was drawn for.
  private var track: [String?] = []

  init(_ dialect: LineDialect) {
    markup = dialect.markup
  }

  /// A new track starts a new width; a player that lost its title (stopped) keeps the last.
  mutating func trackChanged(to nowPlaying: NowPlaying?) {
    let track = [nowPlaying?.title, nowPlaying?.artist, nowPlaying?.album]
    guard !(nowPlaying?.title ?? "").isEmpty && track != self.track else { return }
    self.track = track
    cells = 0
  }

  /// Pads the text from byte `start` of `line` with figure spaces to the widest line, or
  /// takes it as the widest. `cells` is the text's visible cells when the renderer added them
  /// up (``CellTally``); `nil`: they are counted here.
  mutating func pad(_ line: inout ByteLine, from start: Int, cells counted: Int?) {
    let count = counted ?? VisibleCells.count(line.bytes[start...], markup: markup)
    guard count < max(cells, floor) else {
      cells = count
      return
    }
    for _ in count..<max(cells, floor) { line.append(TemplateRenderer.figureSpace) }
  }
}

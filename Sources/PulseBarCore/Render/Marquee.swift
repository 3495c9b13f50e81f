/// A field that scrolls (`{title:24:scroll}`): a window of `width` cells moving over the text
/// and a separator, a cell at a time, looping, with a pause at the start of each loop.
///
/// Built once per change of the value (its characters escaped for the line's dialect, each
/// with its cells: East Asian Wide and emoji 2, ``TextCells``); drawn per frame with no
/// allocation. A value that fits its width does not scroll: it is fitted as any field is.
/// A wide character cut by the window's edge shows as a figure space, so the window is always
/// exactly `width` cells.
///
/// Time is *scroll time*: seconds the line has played since the value changed
/// (``advance(to:playing:)``), so the text stands still while paused or stopped and moves on
/// from where it stood; the offset comes from that time, not from frames, so a consumer at a
/// low frame rate scrolls at the same speed in wall time.
struct Marquee {
  /// The value it was made for (sanitized).
  let value: String
  /// The loop's characters (the value, then the separator), escaped, one after another.
  private let bytes: ByteLine
  /// Per character: where its bytes start in ``bytes`` (and one past the last).
  private let byteStarts: [Int]
  /// Per character: the cell it starts at in the loop (and the loop's length last).
  private let cellStarts: [Int]
  /// The window's cells.
  let width: Int
  /// The window is wrapped in a bidi isolate (the value holds right-to-left text and the
  /// reader does bidi: ``BidiText``).
  private let isolates: Bool
  /// Whether the value is wider than the window (else it does not move).
  let scrolls: Bool
  /// The cells ``append(into:)`` draws: exact when every character's escaped bytes count as
  /// its cells and start and end clean (``CellSpan``), else not clean (the line is counted).
  let span: CellSpan
  private let speed: Double
  private let pause: Double
  /// Seconds played since the value changed, and the clock they were last counted to.
  private(set) var scrollTime = 0.0
  private var lastClock: Double?

  /// A marquee over `value` (already sanitized) with `separator` between loops, its cells
  /// read in `markup`.
  init(
    value: String, width: Int, separator: String, speed: Double, pause: Double,
    dialect: UntrustedText.Dialect, markup: VisibleCells.Markup = .none
  ) {
    self.value = value
    self.width = width
    self.speed = speed
    self.pause = pause
    // Each character is escaped alone (a window may start or end at any of them, beside any
    // text), so every `%` and `{` takes polybar's empty tag (no cell). The value is escaped
    // once; the separator follows only when the value is wider than the window. A reader
    // without bidi gets the loop in display order; one with bidi gets the window isolated.
    let visualOrder = dialect == .polybarLine || dialect == .terminalLine
    isolates =
      !visualOrder && dialect != .json && BidiText.hasRightToLeft(value)
    var bytes = ByteLine()
    var byteStarts: [Int] = []
    var cellStarts: [Int] = []
    var cells = 0
    var clean = true
    func appendEscaped(_ text: String) {
      for character in text {
        byteStarts.append(bytes.count)
        cellStarts.append(cells)
        UntrustedText.append(String(character), as: dialect, to: &bytes, alone: true)
        let span = VisibleCells.span(
          of: bytes.bytes[byteStarts[byteStarts.count - 1]...], markup: markup)
        cells += span.cells
        clean = clean && span.startsClean && span.endsClean
      }
    }
    appendEscaped(visualOrder ? BidiText.visual(value) : value)
    scrolls = cells > width
    if scrolls { appendEscaped(separator) }
    byteStarts.append(bytes.count)
    cellStarts.append(cells)
    self.bytes = bytes
    self.byteStarts = byteStarts
    self.cellStarts = cellStarts
    let drawn = scrolls ? width : max(cells, width)
    span = CellSpan(
      cells: drawn, startsClean: clean, endsClean: clean, isEmpty: drawn == 0 && bytes.count == 0)
  }

  /// The loop's length in cells (value and separator).
  private var loopCells: Int { cellStarts[cellStarts.count - 1] }

  /// Counts scroll time up to `clock` (monotonic seconds) when the line played since the last
  /// call.
  mutating func advance(to clock: Double, playing: Bool) {
    if playing, let lastClock, clock > lastClock {
      scrollTime = min(scrollTime + (clock - lastClock), 1e9)
    }
    lastClock = clock
  }

  /// The cell the window starts at after `time` seconds of scroll time: `pause` seconds at 0,
  /// then one cell every `1/speed` s through the loop, then again.
  func offset(at time: Double) -> Int {
    guard scrolls, loopCells > 0 else { return 0 }
    let cycle = pause + Double(loopCells) / speed
    let phase = time.truncatingRemainder(dividingBy: cycle)
    guard phase >= pause else { return 0 }
    return min(loopCells - 1, Int((phase - pause) * speed))
  }

  /// Scroll time at which the window next moves after `time` (it moves only while playing).
  func nextStep(after time: Double) -> Double {
    let cycle = pause + Double(loopCells) / speed
    let start = time - time.truncatingRemainder(dividingBy: cycle)
    let phase = time - start
    if phase < pause { return start + pause }
    let step = ((phase - pause) * speed).rounded(.down) + 1
    return min(start + pause + step / speed, start + cycle)
  }

  /// Appends the window at the current scroll time: exactly ``width`` cells (isolated when the
  /// value is right-to-left text for a reader that does bidi).
  func append(into out: inout ByteLine) {
    if isolates { out.append(BidiText.isolateStart) }
    appendWindow(into: &out)
    if isolates { out.append(BidiText.isolateEnd) }
  }

  private func appendWindow(into out: inout ByteLine) {
    guard scrolls else {
      out.append(bytes.bytes)
      var cells = loopCells
      while cells < width {
        out.append(TemplateRenderer.figureSpace)
        cells += 1
      }
      return
    }
    let count = cellStarts.count - 1
    var cell = offset(at: scrollTime)
    // The character the window starts in; a wide one cut by the edge shows as a space.
    var index = 0
    while index + 1 < count && cellStarts[index + 1] <= cell { index += 1 }
    var drawn = 0
    if cellStarts[index] < cell {
      out.append(TemplateRenderer.figureSpace)
      drawn += 1
      index = (index + 1) % count
      cell += 1
    }
    while drawn < width {
      let cells = cellStarts[index + 1] - cellStarts[index]
      if drawn + cells > width {
        out.append(TemplateRenderer.figureSpace)
        drawn += 1
        continue
      }
      out.append(
        UnsafeBufferPointer(rebasing: bytes.bytes[byteStarts[index]..<byteStarts[index + 1]]))
      drawn += cells
      index = (index + 1) % count
    }
  }
}

extension CompiledTemplate {
  /// Makes item `item`'s ``Marquee`` for `value`; the same value keeps its marquee and the
  /// scroll time it had (a new player snapshot with the same title does not restart it).
  mutating func updateMarquee(_ item: Int, value: String, style: ScrollStyle, dialect: LineDialect)
  {
    if let marquee = marquees[item], marquee.value == value { return }
    marquees[item] = Marquee(
      value: value, width: widths[item], separator: style.separator, speed: style.speed,
      pause: style.pause, dialect: dialect.values, markup: dialect.markup)
  }

  /// Counts scroll time to `clock` in every marquee (``Marquee/advance(to:playing:)``).
  mutating func advanceMarquees(to clock: Double, playing: Bool) {
    for item in marquees.indices where marquees[item] != nil {
      marquees[item]!.advance(to: clock, playing: playing)
    }
  }

  /// The monotonic time after `clock` at which one of its marquees next moves, or `nil`.
  func nextScrollStep(after clock: Double) -> Double? {
    var next: Double?
    for case let marquee? in marquees where marquee.scrolls {
      let wait = marquee.nextStep(after: marquee.scrollTime) - marquee.scrollTime
      next = min(next ?? .infinity, clock + max(wait, 0.001))
    }
    return next
  }
}

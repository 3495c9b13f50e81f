import PulseBarCore

extension TerminalCanvas {
  /// Composes the whole frame (no allocation): a pure function of its arguments and the
  /// grid size, so one exclusive access covers the frame and tests need no I/O.
  /// `bubbleGlyphs` are one-column scalars indexed like the configuration's glyphs.
  mutating func compose(
    scene: Scene, bars: UnsafeBufferPointer<Float>, status: TerminalStatus,
    bubbleGlyphs: [UInt32]
  ) {
    clear()
    guard rows >= 1, columns >= 1 else { return }
    composeStatus(status, row: rows - 1)
    if rows >= 2 { composeHeader(source: status.source) }
    guard TerminalLayout.fits(rows: rows, columns: columns) else { return }
    let layout = TerminalLayout(rows: rows, columns: columns)
    composeMorph(scene.morphShape, color: colors.state(scene.state), layout)
    composeBubbles(scene.bubbles, glyphs: bubbleGlyphs, layout)
    composeBars(bars, layout)
  }

  // MARK: - Morph

  /// Fills the morph's box with braille dots whose centres lie inside its quads.
  private mutating func composeMorph(_ shape: MorphShape, color: UInt32, _ layout: TerminalLayout) {
    let dotsWide = Float(layout.morphColumns * 2)
    let dotsHigh = Float(layout.morphRows * 4)
    for cellRow in 0..<layout.morphRows {
      for cellColumn in 0..<layout.morphColumns {
        var bits: UInt32 = 0
        for dot in 0..<8 {
          let dx = dot / 4
          let dy = dot % 4
          let point = SIMD2<Float>(
            (Float(cellColumn * 2 + dx) + 0.5) / dotsWide,
            (Float(cellRow * 4 + dy) + 0.5) / dotsHigh)
          if shape.contains(point) { bits |= Self.brailleBit(dot) }
        }
        if bits != 0 {
          set(
            row: layout.morphTop + cellRow, column: layout.morphLeft + cellColumn,
            scalar: 0x2800 + bits, color: color)
        }
      }
    }
  }

  /// Braille bit of dot `dot` in 0..<8: dots 0...3 run down the left column, 4...7 down
  /// the right (Unicode numbers dots 1-2-3-7 and 4-5-6-8).
  private static func brailleBit(_ dot: Int) -> UInt32 {
    let dx = dot / 4
    let dy = dot % 4
    if dy < 3 { return 1 << UInt32(dy + 3 * dx) }
    return dx == 0 ? 0x40 : 0x80
  }

  // MARK: - Bubbles

  /// Draws each bubble's glyph (a dot while it is small), dimmed by its opacity.
  private mutating func composeBubbles(
    _ bubbles: [Bubble], glyphs: [UInt32], _ layout: TerminalLayout
  ) {
    let unitColumns = Float(layout.bubbleRows * 2)
    for bubble in bubbles {
      let row = layout.bubbleBase - Int((bubble.y * Float(layout.bubbleRows)).rounded())
      let offset = Int((bubble.x * unitColumns).rounded())
      let column = min(layout.panelWidth - 1, max(0, layout.bubbleCenter + offset))
      let scalar: UInt32
      if bubble.scale < 0.4 {
        scalar = 0xB7  // ·
      } else if bubble.scale < 0.7 {
        scalar = 0x2022  // •
      } else {
        scalar =
          glyphs.indices.contains(bubble.glyphIndex)
          ? glyphs[bubble.glyphIndex] : 0x2665
      }
      let tint = colors.bubble
      let alpha = bubble.alpha
      let color = TerminalPalette.rgb(tint.red * alpha, tint.green * alpha, tint.blue * alpha)
      set(row: row, column: column, scalar: scalar, color: color)
    }
  }

  // MARK: - Bars

  /// Multi-row bars in eighths of a cell (▁…█), coloured by height.
  private mutating func composeBars(_ bars: UnsafeBufferPointer<Float>, _ layout: TerminalLayout) {
    let count = bars.count
    let available = layout.barsRight - layout.barsLeft
    guard count > 0, available > 0 else { return }
    let gap = count * 2 - 1 <= available ? 1 : 0
    let width = max(1, (available - gap * (count - 1)) / count)
    let barRows = layout.barsBottom - layout.barsTop + 1
    for bar in 0..<count {
      let left = layout.barsLeft + bar * (width + gap)
      guard left < layout.barsRight else { break }
      let right = min(layout.barsRight, left + width)
      let level = Int((min(1, max(0, bars[bar])) * Float(barRows * 8)).rounded())
      for step in 0..<barRows {
        let fill = level - step * 8
        guard fill > 0 else { break }
        let scalar: UInt32 = fill >= 8 ? 0x2588 : 0x2580 + UInt32(fill)
        let color = colors.bar(
          index: bar, count: count, height: Float(step) / Float(max(1, barRows - 1)))
        for column in left..<right {
          set(row: layout.barsBottom - step, column: column, scalar: scalar, color: color)
        }
      }
    }
  }

  // MARK: - Status line

  /// The header: program name, source and the key that quits.
  private mutating func composeHeader(source: String) {
    let dim = TerminalPalette.title
    var column = write(" pulsebar  source ", row: 0, column: 0, color: dim)
    column = write(source, row: 0, column: column)
    write("  q quits", row: 0, column: column, color: dim)
  }

  /// `state … fps … onset … cpu … clients … dropped …` (71 columns at most figures).
  private mutating func composeStatus(_ status: TerminalStatus, row: Int) {
    let dim = TerminalPalette.title
    var column = write(" state ", row: row, column: 0, color: dim)
    column = write(
      Self.name(of: status.state), row: row, column: column,
      color: TerminalPalette.state(status.state))
    column = write("  fps ", row: row, column: column, color: dim)
    column = write(tenths: status.fps, row: row, column: column)
    column = write("  onset ", row: row, column: column, color: dim)
    if let latency = status.onsetLatency {
      column = write(tenths: latency * 1000, row: row, column: column)
      column = write(" ms", row: row, column: column)
    } else {
      column = write("-", row: row, column: column)
    }
    column = write("  cpu ", row: row, column: column, color: dim)
    column = write(tenths: status.cpuPercent, row: row, column: column)
    column = write("%", row: row, column: column)
    column = write("  clients ", row: row, column: column, color: dim)
    column = write(integer: status.socketClients, row: row, column: column)
    column = write("  dropped ", row: row, column: column, color: dim)
    write(integer: status.droppedFrames, row: row, column: column)
  }

  /// The state's name as a literal (no allocation).
  private static func name(of state: PlaybackState) -> String {
    switch state {
    case .playing: return "playing"
    case .paused: return "paused"
    case .stopped: return "stopped"
    }
  }
}

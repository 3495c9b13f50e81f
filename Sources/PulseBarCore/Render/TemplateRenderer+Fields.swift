// MARK: - The fields drawn per frame

extension TemplateRenderer {
  /// The play/pause glyph in its state's colour.
  func appendGlyph(
    scene: borrowing Scene, width: Int, into out: inout ByteLine, tally: inout CellTally
  ) {
    let colored = appendTag(LineColors.glyphTag(scene.state), into: &out, tally: &tally)
    let frame = MorphGlyph.frameIndex(for: scene.morph, frames: glyphs.morph.count)
    glyphs.morph.withGlyph(frame) { out.append($0) }
    tally.add(glyphs.morph.span(frame))
    if colored { appendClosing(into: &out, tally: &tally) }
    FieldText.appendPadding(width - 1, into: &out)
    tally.add(.plain(max(0, width - 1)))
  }

  /// The bars, each in its gradient colour (one pre-encoded run of bytes per bar).
  func appendBars(
    _ bars: UnsafeBufferPointer<Float>, width: Int, into out: inout ByteLine,
    tally: inout CellTally
  ) {
    let levels = glyphs.bars.count
    let shown = width > 0 ? min(width, bars.count) : bars.count
    let colored = colors.colorsBars
    for index in 0..<shown {
      let level = min(levels - 1, max(0, Int(bars[index] * Float(levels))))
      if colored {
        let entry = colors.bar(index: index, level: level)
        colors.bars.withGlyph(entry) { out.append($0) }
        tally.add(colors.bars.span(entry))
      } else {
        glyphs.bars.withGlyph(level) { out.append($0) }
        tally.add(glyphs.bars.span(level))
      }
    }
    if width > 0 {
      FieldText.appendPadding(width - shown, into: &out)
      tally.add(.plain(max(0, width - shown)))
    }
  }

  /// The live bubbles, then figure spaces to `bubbles.max` cells (or the width), so the line
  /// keeps one width in every state; fading through Pango's `alpha` where the dialect does.
  func appendBubbles(
    scene: borrowing Scene, width: Int, into out: inout ByteLine, tally: inout CellTally
  ) {
    let cells = width > 0 ? width : bubbleSlots
    let colored = appendTag(LineColors.bubbleTag, into: &out, tally: &tally)
    var used = 0
    for bubble in scene.bubbles where used < cells && !glyphs.bubbles.isEmpty {
      if dialect.fadesBubbles {
        out.append(dialect.inJSON ? "<span alpha=\\\"" : "<span alpha=\"")
        out.append(integer: UInt64(max(1, min(100, bubble.alpha * 100 + 0.5))))
        out.append(dialect.inJSON ? "%\\\">" : "%\">")
        tally.add(.tag)
      }
      glyphs.bubbles.withGlyph(bubble.glyphIndex) { out.append($0) }
      tally.add(glyphs.bubbles.span(bubble.glyphIndex))
      if dialect.fadesBubbles {
        out.append("</span>")
        tally.add(.tag)
      }
      used += 1
    }
    FieldText.appendPadding(cells - used, into: &out)
    tally.add(.plain(max(0, cells - used)))
    if colored { appendClosing(into: &out, tally: &tally) }
  }

  /// The position as `m:ss` (`h:mm:ss` from an hour), fitted to `width` when given.
  mutating func appendPosition(
    _ seconds: Double?, width: Int, into out: inout ByteLine, tally: inout CellTally
  ) {
    scratch.removeAll()
    if let seconds { PlaybackPosition.appendClock(seconds, into: &scratch) }
    FieldText.appendFitted(scratch.bytes, width: width, into: &out)
    // ASCII digits and colons: a cell a byte.
    tally.add(.plain(width > 0 ? width : scratch.count))
  }

  /// Opens colour tag `tag` when it has one; true when it did.
  private func appendTag(_ tag: Int, into out: inout ByteLine, tally: inout CellTally) -> Bool {
    tally.add(colors.tags.span(tag))
    return colors.tags.withGlyph(tag) { bytes in
      out.append(bytes)
      return bytes.count > 0
    }
  }

  private func appendClosing(into out: inout ByteLine, tally: inout CellTally) {
    colors.closing.withGlyph(0) { out.append($0) }
    tally.add(colors.closing.span(0))
  }
}

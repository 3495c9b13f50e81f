// MARK: - The fields drawn per frame

extension TemplateRenderer {
  /// The play/pause glyph in its state's colour.
  func appendGlyph(scene: borrowing Scene, width: Int, into out: inout ByteLine) {
    let colored = appendTag(LineColors.glyphTag(scene.state), into: &out)
    glyphs.morph.withGlyph(MorphGlyph.frameIndex(for: scene.morph, frames: glyphs.morph.count)) {
      out.append($0)
    }
    if colored { appendClosing(into: &out) }
    Self.appendPadding(width - 1, into: &out)
  }

  /// The bars, each in its gradient colour (one pre-encoded run of bytes per bar).
  func appendBars(_ bars: UnsafeBufferPointer<Float>, width: Int, into out: inout ByteLine) {
    let levels = glyphs.bars.count
    let shown = width > 0 ? min(width, bars.count) : bars.count
    let colored = colors.colorsBars
    for index in 0..<shown {
      let level = min(levels - 1, max(0, Int(bars[index] * Float(levels))))
      if colored {
        colors.bars.withGlyph(colors.bar(index: index, level: level)) { out.append($0) }
      } else {
        glyphs.bars.withGlyph(level) { out.append($0) }
      }
    }
    if width > 0 { Self.appendPadding(width - shown, into: &out) }
  }

  /// The live bubbles, then figure spaces to `bubbles.max` cells (or the width), so the line
  /// keeps one width in every state; fading through Pango's `alpha` where the dialect does.
  func appendBubbles(scene: borrowing Scene, width: Int, into out: inout ByteLine) {
    let cells = width > 0 ? width : bubbleSlots
    let colored = appendTag(LineColors.bubbleTag, into: &out)
    var used = 0
    for bubble in scene.bubbles where used < cells && !glyphs.bubbles.isEmpty {
      if dialect.fadesBubbles {
        out.append(dialect.inJSON ? "<span alpha=\\\"" : "<span alpha=\"")
        out.append(integer: UInt64(max(1, min(100, bubble.alpha * 100 + 0.5))))
        out.append(dialect.inJSON ? "%\\\">" : "%\">")
        glyphs.bubbles.withGlyph(bubble.glyphIndex) { out.append($0) }
        out.append("</span>")
      } else {
        glyphs.bubbles.withGlyph(bubble.glyphIndex) { out.append($0) }
      }
      used += 1
    }
    Self.appendPadding(cells - used, into: &out)
    if colored { appendClosing(into: &out) }
  }

  /// The position as `m:ss` (`h:mm:ss` from an hour), fitted to `width` when given.
  mutating func appendPosition(_ seconds: Double?, width: Int, into out: inout ByteLine) {
    scratch.removeAll()
    if let seconds { PlaybackPosition.appendClock(seconds, into: &scratch) }
    Self.appendFitted(scratch.bytes, width: width, into: &out)
  }

  /// A bar of `cells` cells: full blocks, one partial block in eighths, light shade for the rest.
  func appendProgress(_ seconds: Double?, cells: Int, into out: inout ByteLine) {
    let length = position?.length ?? 0
    let fraction = seconds.map { length > 0 ? min(max($0 / length, 0), 1) : 0 } ?? 0
    let eighths = Int(fraction * Double(cells * 8))
    var drawn = 0
    while drawn < eighths / 8 {
      out.append("█" as StaticString)
      drawn += 1
    }
    if eighths % 8 > 0 && drawn < cells {
      Self.progressPartials.withGlyph(eighths % 8 - 1) { out.append($0) }
      drawn += 1
    }
    while drawn < cells {
      out.append("░" as StaticString)
      drawn += 1
    }
  }

  /// U+258F … U+2589, one to seven eighths of a cell (in DejaVu and Noto Sans Mono).
  private static let progressPartials = GlyphTable(["▏", "▎", "▍", "▌", "▋", "▊", "▉"])

  /// Opens colour tag `tag` when it has one; true when it did.
  private func appendTag(_ tag: Int, into out: inout ByteLine) -> Bool {
    colors.tags.withGlyph(tag) { bytes in
      out.append(bytes)
      return bytes.count > 0
    }
  }

  private func appendClosing(into out: inout ByteLine) {
    colors.closing.withGlyph(0) { out.append($0) }
  }

  static func appendPadding(_ cells: Int, into out: inout ByteLine) {
    var cells = cells
    while cells > 0 {
      out.append(figureSpace)
      cells -= 1
    }
  }

  /// ASCII `text` fitted to `width` cells (cut with "…", padded); as it is without a width.
  static func appendFitted(_ text: StaticString, width: Int, into out: inout ByteLine) {
    text.withUTF8Buffer { appendFitted($0, width: width, into: &out) }
  }

  static func appendFitted(
    _ text: UnsafeBufferPointer<UInt8>, width: Int, into out: inout ByteLine
  ) {
    guard width > 0 else { return out.append(text) }
    guard text.count > width else {
      out.append(text)
      return appendPadding(width - text.count, into: &out)
    }
    out.append(UnsafeBufferPointer(rebasing: text[..<(width - 1)]))
    out.append("…" as StaticString)
  }
}

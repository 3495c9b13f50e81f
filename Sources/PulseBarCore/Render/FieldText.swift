/// Text a template field draws a cell a byte or a glyph a cell, so its cells are known without
/// reading it: figure-space padding, ASCII fitted to a width, the progress bar.
enum FieldText {
  /// `cells` figure spaces (``TemplateRenderer/figureSpace``).
  static func appendPadding(_ cells: Int, into out: inout ByteLine) {
    var cells = cells
    while cells > 0 {
      out.append(TemplateRenderer.figureSpace)
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

  /// A bar of `cells` cells `fraction` (0…1) full: full blocks, one partial block in eighths,
  /// light shade for the rest.
  static func appendProgress(_ fraction: Double, cells: Int, into out: inout ByteLine) {
    let eighths = Int(fraction * Double(cells * 8))
    var drawn = 0
    while drawn < eighths / 8 {
      out.append("█" as StaticString)
      drawn += 1
    }
    if eighths % 8 > 0 && drawn < cells {
      progressPartials.withGlyph(eighths % 8 - 1) { out.append($0) }
      drawn += 1
    }
    while drawn < cells {
      out.append("░" as StaticString)
      drawn += 1
    }
  }

  /// U+258F … U+2589, one to seven eighths of a cell (in DejaVu and Noto Sans Mono).
  private static let progressPartials = GlyphTable(["▏", "▎", "▍", "▌", "▋", "▊", "▉"])
}

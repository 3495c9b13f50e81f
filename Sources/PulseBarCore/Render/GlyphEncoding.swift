/// How text glyphs are written: as they are, as Pango markup, inside a JSON string, or as
/// Pango markup inside a JSON string.
enum GlyphEncoding {
  case plain
  case pango
  case json
  case pangoInJSON
}

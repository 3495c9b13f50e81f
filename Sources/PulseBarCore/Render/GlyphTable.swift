/// Glyphs encoded once as UTF-8 in one flat array, so drawing one costs no
/// reference counting (an array of arrays retains the inner array on every read).
struct GlyphTable: Sendable {
  private let storage: [UInt8]
  private let starts: [Int]
  /// Glyphs in the table.
  let count: Int

  init(_ glyphs: [String]) {
    var storage: [UInt8] = []
    var starts: [Int] = [0]
    for glyph in glyphs {
      storage.append(contentsOf: glyph.utf8)
      starts.append(storage.count)
    }
    self.storage = storage
    self.starts = starts
    count = glyphs.count
  }

  var isEmpty: Bool { count == 0 }

  /// Calls `body` with glyph `index`'s bytes (`index` wraps around the table).
  @inline(__always)
  func withGlyph<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let glyph = index < count ? index : index % count  // skip the division in the usual case
    return storage.withUnsafeBufferPointer { all in
      body(UnsafeBufferPointer(rebasing: all[starts[glyph]..<starts[glyph + 1]]))
    }
  }
}

/// How text glyphs are written: as they are, as Pango markup, inside a JSON string, or as
/// Pango markup inside a JSON string.
enum GlyphEncoding {
  case plain
  case pango
  case json
  case pangoInJSON
}

/// The bar, bubble and morph glyphs of a configuration in one encoding.
struct TextGlyphs: Sendable {
  let encoding: GlyphEncoding
  let bars: GlyphTable
  let bubbles: GlyphTable
  let morph: GlyphTable

  init(_ configuration: Configuration, encoding: GlyphEncoding) {
    self.encoding = encoding
    bars = GlyphTable(configuration.barGlyphs.map { Self.encoded($0, encoding) })
    bubbles = GlyphTable(configuration.bubbleGlyphs.map { Self.encoded($0, encoding) })
    morph = GlyphTable(configuration.morphGlyphs.map { Self.encoded($0, encoding) })
  }

  /// `glyph` written in `encoding`.
  static func encoded(_ glyph: String, _ encoding: GlyphEncoding) -> String {
    var line = ByteLine()
    switch encoding {
    case .plain: line.append(Array(glyph.utf8))
    case .json: line.appendJSONEscaped(glyph.utf8)
    case .pango: line.appendMarkupEscaped(glyph.utf8, inJSON: false)
    case .pangoInJSON: line.appendMarkupEscaped(glyph.utf8)
    }
    return String(decoding: line.bytes, as: UTF8.self)
  }
}

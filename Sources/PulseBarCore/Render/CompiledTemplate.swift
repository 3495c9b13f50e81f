/// A ``Template`` with its own text encoded for one line's dialect, and the values of its
/// player and track fields escaped for it: what a frame copies.
///
/// The literals (prefix, each field's brackets, the separators, the suffix) sit in one
/// ``GlyphTable``: `0` the prefix, `1` the suffix, then per item its opener, its closer and the
/// separator after it. ``values`` holds each item's escaped value for the fields that change
/// only with the track or the source (``Template/Field/isTrackField``), made by
/// ``TemplateRenderer/update(nowPlaying:source:connected:)``.
struct CompiledTemplate {
  let fields: [Template.Field]
  /// Cells of each item, or 0 for its own width.
  let widths: [Int]
  /// Each separator's weight (``Template/weight(_:)``): the lightest of a run is kept.
  let weights: [Int]
  let literals: GlyphTable
  /// Per item: the escaped (and fitted) value of a track field; empty when it has none.
  var values: [ByteLine]
  /// Per item: the cells of ``values`` (``CellSpan``), counted with them.
  var valueSpans: [CellSpan]
  /// Per item: `:scroll` was asked for.
  let scrolls: [Bool]
  /// Per item that scrolls: its value as a ``Marquee`` (made with ``values``).
  var marquees: [Marquee?]

  init(_ template: Template, dialect: LineDialect) {
    fields = template.items.map(\.field)
    widths = template.items.map { $0.width ?? 0 }
    weights = template.separators.map(Template.weight)
    var texts = [template.prefix, template.suffix]
    for (index, item) in template.items.enumerated() {
      texts += [item.opener, item.closer]
      texts.append(index < template.separators.count ? template.separators[index] : "")
    }
    literals = GlyphTable(texts.map(dialect.encoded), markup: dialect.markup)
    values = Array(repeating: ByteLine(), count: template.items.count)
    valueSpans = Array(repeating: .plain(0), count: template.items.count)
    scrolls = template.items.map(\.scrolls)
    marquees = Array(repeating: nil, count: template.items.count)
  }

  static let prefix = 0
  static let suffix = 1
  @inline(__always) static func opener(_ item: Int) -> Int { 2 + item * 3 }
  @inline(__always) static func closer(_ item: Int) -> Int { 3 + item * 3 }
  @inline(__always) static func separator(_ item: Int) -> Int { 4 + item * 3 }

  /// The separator kept between items `previous` and `next`: the lightest between them.
  func lightestSeparator(from previous: Int, to next: Int) -> Int {
    var best = previous
    for index in previous..<next where weights[index] < weights[best] { best = index }
    return Self.separator(best)
  }

  /// The widths (0: its own) of the items that show `field`.
  func widths(of field: Template.Field) -> [Int] {
    fields.indices.filter { fields[$0] == field }.map { widths[$0] }
  }

  /// True when the template shows one of `wanted`.
  func shows(_ wanted: Template.Field...) -> Bool { fields.contains { wanted.contains($0) } }

  /// Sets track field `item`'s value (`nil`: none): fitted to its width, escaped for
  /// `dialect`, its cells counted (``valueSpans``), and its marquee when it scrolls.
  mutating func setTrackValue(
    _ item: Int, to value: String?, dialect: LineDialect, scrollStyle: ScrollStyle
  ) {
    var line = ByteLine()
    let width = widths[item]
    if scrolls[item] {
      updateMarquee(
        item, value: UntrustedText.sanitized(value ?? ""), style: scrollStyle, dialect: dialect)
    }
    let sanitized = UntrustedText.sanitized(value ?? "")
    var budget = width
    var span = CellSpan.plain(0)
    repeat {
      line = ByteLine()
      let text = width > 0 ? TextCells.fit(sanitized, cells: budget) : value
      // `{volume}` is ours ("40%", digits and a percent sign): no polybar tag can form in it.
      if fields[item] == .volume, let text {
        line.append(Array(text.utf8))
      } else if let text, width > 0 {
        UntrustedText.appendFitted(text, as: dialect.values, to: &line)
      } else if let text {
        UntrustedText.append(text, as: dialect.values, to: &line)
      }
      span = VisibleCells.span(of: line.bytes, markup: dialect.markup)
      // A `%` or `{` escaped with the space that keeps polybar from opening a tag shows a cell
      // more than it counts: fitted again with fewer cells, the field keeps its width.
      budget -= max(span.cells - width, 0)
    } while width > 0 && span.cells > width
    values[item] = line
    valueSpans[item] = span
  }
}

extension Template.Field {
  /// Fields whose text may scroll (`{title:24:scroll}`).
  var canScroll: Bool {
    switch self {
    case .player, .title, .artist, .album, .source: true
    default: false
    }
  }

  /// Fields whose value changes only with the player's track or the source: escaped once per
  /// change. The others (glyph, bars, bubbles, state, position, progress, lyric) are drawn per
  /// frame.
  var isTrackField: Bool {
    switch self {
    case .player, .title, .artist, .album, .length, .source, .volume, .playerIcon: true
    case .glyph, .bars, .bubbles, .state, .position, .progress, .lyric: false
    }
  }
}

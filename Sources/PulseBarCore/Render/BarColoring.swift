/// How `[colors] bars` spreads its gradient: across the bars left to right, or over height
/// (each bar's colour from its own height, by glyph level).
package enum BarColoring: String, Sendable, CaseIterable {
  case position
  case height
}

import Glibc

/// The markup pulsebar adds to a text line (fading bubbles, colour): `text` takes all four;
/// waybar's `text` takes `pango` and draws every other choice as `none` (Waybar parses its
/// text as Pango either way, so values there are always Pango-escaped).
package enum Markup: String, Sendable, CaseIterable {
  /// Plain text.
  case none
  /// Pango markup: Waybar, i3blocks with `markup=pango`.
  case pango
  /// polybar's `%{…}` tags.
  case polybar
  /// ANSI escape sequences, for a terminal.
  case ansi
}

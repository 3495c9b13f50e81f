/// How one text line is written for its reader: how values from outside are escaped, whether
/// the line sits in a JSON string, and the markup pulsebar itself adds (colour, fading bubbles).
///
/// - `text` with `markup = none`: plain text, no colour;
/// - `text` with `pango`: Pango markup (i3blocks `markup=pango`), colour as
///   `<span foreground="#rrggbb">`, bubbles fade through `alpha`;
/// - `text` with `polybar`: `%{F#rrggbb}…%{F-}`;
/// - `text` with `ansi`: 24-bit `ESC[38;2;r;g;bm…ESC[39m`;
/// - `waybar`'s `text` and `tooltip`: Pango markup in a JSON string whatever `markup` says
///   (Waybar parses it so); bubbles fade only with `markup = pango`, as before.
/// Values always go through ``UntrustedText`` for the dialect's reader.
struct LineDialect: Sendable, Equatable {
  enum Colors: Sendable, Equatable {
    case none, pango, polybar, ansi
  }

  let values: UntrustedText.Dialect
  let colors: Colors
  /// The line is the body of a JSON string: the template's text and pulsebar's own tags are
  /// JSON-escaped.
  let inJSON: Bool
  /// Bubbles fade through Pango's `alpha`.
  let fadesBubbles: Bool

  init(format: OutputFormat, markup: Markup) {
    if format == .waybar {
      values = .pangoInJSON
      colors = .pango
      inJSON = true
      fadesBubbles = markup == .pango
      return
    }
    inJSON = false
    fadesBubbles = markup == .pango
    switch markup {
    case .none: (values, colors) = (.textLine, .none)
    case .pango: (values, colors) = (.pango, .pango)
    case .polybar: (values, colors) = (.polybarLine, .polybar)
    case .ansi: (values, colors) = (.terminalLine, .ansi)
    }
  }

  /// How the line's visible cells are read (``VisibleCells``).
  var markup: VisibleCells.Markup {
    switch (inJSON, colors) {
    case (true, _): .pangoInJSON
    case (false, .none): .none
    case (false, .pango): .pango
    case (false, .polybar): .polybar
    case (false, .ansi): .ansi
    }
  }

  /// How glyphs from the config are written.
  var glyphEncoding: GlyphEncoding {
    switch (values, inJSON) {
    case (.pango, _): .pango
    case (_, true): .pangoInJSON
    default: .plain
    }
  }

  /// Appends the template's own text (or pulsebar's own tags): JSON-escaped inside JSON, as it
  /// is otherwise (a template may carry its reader's markup).
  func appendLiteral(_ text: some StringProtocol, to line: inout ByteLine) {
    if inJSON {
      line.appendJSONEscaped(text.utf8)
    } else {
      line.append(Array(text.utf8))
    }
  }

  /// The tag that starts text in `color`; empty when the dialect has no colour.
  func colorOpening(_ color: RGBColor) -> String {
    switch colors {
    case .none: ""
    case .pango: "<span foreground=\"\(color)\">"
    case .polybar: "%{F\(color)}"
    case .ansi: "\u{1B}[38;2;\(color.red);\(color.green);\(color.blue)m"
    }
  }

  /// The tag that ends a colour.
  var colorClosing: String {
    switch colors {
    case .none: ""
    case .pango: "</span>"
    case .polybar: "%{F-}"
    case .ansi: "\u{1B}[39m"
    }
  }

  /// A literal encoded for the line, as a string for a ``GlyphTable``.
  func encoded(_ text: String) -> String {
    var line = ByteLine()
    appendLiteral(text, to: &line)
    return String(decoding: line.bytes, as: UTF8.self)
  }
}

import Testing

@testable import PulseBarCore

/// Pango markup read as Pango reads it: a small XML well-formedness check (tags nest and
/// close, attributes are quoted, `&` starts an entity), with only the tags pulsebar writes
/// allowed. Returns the text drawn.
enum PangoReader {
  static func text(_ markup: String) throws -> String {
    var text = ""
    var open = 0
    var rest = Substring(markup)
    while let first = rest.first {
      if first == "<" {
        let close = try #require(rest.firstIndex(of: ">"), "unclosed tag in \(markup)")
        let tag = String(rest[...close])
        rest = rest[rest.index(after: close)...]
        if tag == "</span>" {
          open -= 1
          try #require(open >= 0, "a </span> closes nothing in \(markup)")
        } else {
          try #require(isOwnTag(tag), "a tag pulsebar did not write: \(tag)")
          open += 1
        }
      } else if first == "&", rest.dropFirst().first == "#",
        let end = rest.firstIndex(of: ";"),
        let value = UInt32(rest[rest.index(rest.startIndex, offsetBy: 2)..<end]),
        let scalar = Unicode.Scalar(value)
      {
        // A decimal character reference (`&#37;`), as pulsebar writes a `%` or `{`.
        text.unicodeScalars.append(scalar)
        rest = rest[rest.index(after: end)...]
      } else if first == "&" {
        let entities = ["&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&apos;": "'"]
        let entity = try #require(
          entities.keys.first { rest.hasPrefix($0) }, "a bare & in \(markup)")
        text += entities[entity]!
        rest = rest.dropFirst(entity.count)
      } else {
        try #require(first != ">", "a bare > in \(markup)")
        text.append(first)
        rest = rest.dropFirst()
      }
    }
    try #require(open == 0, "\(open) spans left open in \(markup)")
    return text
  }

  /// `<span foreground="#rrggbb">` or `<span alpha="N%">`.
  static func isOwnTag(_ tag: String) -> Bool {
    if tag.hasPrefix("<span foreground=\"#") && tag.hasSuffix("\">") && tag.count == 27 {
      return RGBColor(parsing: tag.dropFirst(18).prefix(7)) != nil
    }
    guard tag.hasPrefix("<span alpha=\""), tag.hasSuffix("%\">") else { return false }
    return Int(tag.dropFirst(13).dropLast(3)).map { (1...100).contains($0) } ?? false
  }
}

/// A polybar line as polybar reads it: pulsebar's own `%{F#rrggbb}` and `%{F-}` removed; any
/// other `%{` left is a tag someone else injected.
enum PolybarReader {
  static func text(_ line: String) -> String {
    var text = ""
    var rest = Substring(line)
    while let first = rest.first {
      if rest.hasPrefix("%{F-}") || rest.hasPrefix("%{O0}") {
        rest = rest.dropFirst(5)
      } else if rest.hasPrefix("%{F#"), rest.count >= 12,
        RGBColor(parsing: rest.dropFirst(3).prefix(7)) != nil,
        rest.dropFirst(10).first == "}"
      {
        rest = rest.dropFirst(11)
      } else {
        text.append(first)
        rest = rest.dropFirst()
      }
    }
    return text
  }
}

/// A line as a terminal reads it: pulsebar's own SGR colours (`ESC[38;2;r;g;bm`, `ESC[39m`)
/// removed; any other ESC left is a sequence someone else injected.
enum AnsiReader {
  static func text(_ line: String) -> String {
    var text = ""
    var rest = Substring(line)
    while let first = rest.first {
      if rest.hasPrefix("\u{1B}[39m") {
        rest = rest.dropFirst(5)
      } else if rest.hasPrefix("\u{1B}[38;2;"), let end = rest.firstIndex(of: "m"),
        rest[rest.index(rest.startIndex, offsetBy: 7)..<end].allSatisfy({
          $0 == ";" || $0.isASCII && $0.isNumber
        })
      {
        rest = rest[rest.index(after: end)...]
      } else {
        text.append(first)
        rest = rest.dropFirst()
      }
    }
    return text
  }
}

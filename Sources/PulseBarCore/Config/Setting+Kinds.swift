/// The kinds of value a ``Setting`` reads: each makes the setting for one key, with its
/// parsing, its range check and how the value is written back.
extension Setting {
  /// A ``Template``: checked here (unknown fields, unclosed braces, bad widths, with the
  /// column), kept as text and parsed once per renderer.
  static func template(
    _ section: String, _ key: String, _ path: WritableKeyPath<Configuration, String> & Sendable,
    _ help: String
  ) -> Setting {
    Setting(
      section: section, key: key, help: help,
      apply: { text, configuration throws(ValueError) in
        do throws(TemplateError) {
          _ = try Template(parsing: text)
        } catch {
          throw ValueError(error.message, column: error.column)
        }
        configuration[keyPath: path] = text
      }, render: { $0[keyPath: path] })
  }

  /// `#rrggbb, …` (empty: none).
  static func colors(
    _ section: String, _ key: String,
    _ path: WritableKeyPath<Configuration, [RGBColor]> & Sendable, _ help: String
  ) -> Setting {
    Setting(
      section: section, key: key, help: help,
      apply: { text, configuration throws(ValueError) in
        configuration[keyPath: path] = try commaList(
          text, "expected colours as #rrggbb separated by commas"
        ) { RGBColor(parsing: $0) }
      },
      render: { $0[keyPath: path].map(\.description).joined(separator: ", ") })
  }

  /// The items of a comma-separated list, each trimmed and read by `element`; the first it
  /// refuses is named in the error.
  static func commaList<Element>(
    _ text: String, _ expected: String, _ element: (String) -> Element?
  ) throws(ValueError) -> [Element] {
    var elements: [Element] = []
    for part in text.split(separator: ",") {
      let item = part.trimmingWhitespace()
      guard let value = element(item) else { throw ValueError("\(expected), got '\(item)'") }
      elements.append(value)
    }
    return elements
  }

  /// One `#rrggbb`, or empty for none.
  static func color(
    _ section: String, _ key: String,
    _ path: WritableKeyPath<Configuration, RGBColor?> & Sendable, _ help: String
  ) -> Setting {
    Setting(
      section: section, key: key, help: help,
      apply: { text, configuration throws(ValueError) in
        guard !text.isEmpty else {
          configuration[keyPath: path] = nil
          return
        }
        guard let color = RGBColor(parsing: text) else {
          throw ValueError("expected a colour as #rrggbb (or nothing), got '\(text)'")
        }
        configuration[keyPath: path] = color
      }, render: { $0[keyPath: path]?.description ?? "" })
  }

  /// Names separated by commas (empty: none); a name has no spaces.
  static func names(
    _ section: String, _ key: String,
    _ path: WritableKeyPath<Configuration, [String]> & Sendable, _ help: String
  ) -> Setting {
    Setting(
      section: section, key: key, help: help,
      apply: { text, configuration throws(ValueError) in
        configuration[keyPath: path] = try commaList(
          text, "expected player names separated by commas"
        ) { name in
          let printable = name.unicodeScalars.allSatisfy {
            $0.properties.generalCategory != .control && $0 != " "
          }
          return printable ? name : nil
        }
      }, render: { $0[keyPath: path].joined(separator: ", ") })
  }

  static func integer(
    _ section: String, _ key: String, _ range: ClosedRange<Int>,
    _ path: WritableKeyPath<Configuration, Int> & Sendable, _ help: String
  ) -> Setting {
    Setting(
      section: section, key: key, help: help,
      apply: { text, configuration throws(ValueError) in
        guard let value = Int(text) else {
          throw ValueError("expected a whole number, got '\(text)'")
        }
        guard range.contains(value) else {
          throw ValueError("\(value) is out of range \(range.lowerBound)…\(range.upperBound)")
        }
        configuration[keyPath: path] = value
      }, render: { String($0[keyPath: path]) })
  }

  /// A real number (`Float` Hz and gains, `Double` seconds) within `range`.
  static func number<Value: BinaryFloatingPoint & LosslessStringConvertible & Sendable>(
    _ section: String, _ key: String, _ range: ClosedRange<Value>,
    _ path: WritableKeyPath<Configuration, Value> & Sendable, _ help: String
  ) -> Setting {
    Setting(
      section: section, key: key, help: help,
      apply: { text, configuration throws(ValueError) in
        guard let value = Value(text), value.isFinite else {
          throw ValueError("expected a number, got '\(text)'")
        }
        guard range.contains(value) else {
          throw ValueError(
            "\(value.formattedSetting) is out of range \(range.lowerBound.formattedSetting)…\(range.upperBound.formattedSetting)"
          )
        }
        configuration[keyPath: path] = value
      }, render: { $0[keyPath: path].formattedSetting })
  }

  /// Free text, taken as it stands (empty allowed).
  static func text(
    _ section: String, _ key: String, _ path: WritableKeyPath<Configuration, String> & Sendable,
    _ help: String
  ) -> Setting {
    Setting(
      section: section, key: key, help: help,
      apply: { text, configuration throws(ValueError) in configuration[keyPath: path] = text },
      render: { quotedIfSpaced($0[keyPath: path]) })
  }

  static func boolean(
    _ section: String, _ key: String, _ path: WritableKeyPath<Configuration, Bool> & Sendable,
    _ help: String
  ) -> Setting {
    Setting(
      section: section, key: key, help: help,
      apply: { text, configuration throws(ValueError) in
        switch text.lowercased() {
        case "true", "yes", "on", "1": configuration[keyPath: path] = true
        case "false", "no", "off", "0": configuration[keyPath: path] = false
        default: throw ValueError("expected true or false, got '\(text)'")
        }
      }, render: { $0[keyPath: path] ? "true" : "false" })
  }

  static func choice<Value: RawRepresentable & CaseIterable & Sendable>(
    _ section: String, _ key: String, _ path: WritableKeyPath<Configuration, Value> & Sendable,
    _ help: String
  ) -> Setting where Value.RawValue == String {
    Setting(
      section: section, key: key, help: help,
      apply: { text, configuration throws(ValueError) in
        guard let value = Value(rawValue: text) else {
          let names = Value.allCases.map(\.rawValue).joined(separator: ", ")
          throw ValueError("expected one of \(names), got '\(text)'")
        }
        configuration[keyPath: path] = value
      }, render: { $0[keyPath: path].rawValue })
  }

  /// A list of glyphs written together; spaces between them are ignored. Control characters
  /// are refused: they would land in every output line, and a glyph that starts with a
  /// combining mark after one (or ends in a prepended mark before one) merges with the space
  /// that separates it from its neighbour when the list is written back.
  static func glyphs(
    _ section: String, _ key: String, _ path: WritableKeyPath<Configuration, [String]> & Sendable,
    _ help: String
  ) -> Setting {
    Setting(
      section: section, key: key, help: help,
      apply: { text, configuration throws(ValueError) in
        if let control = text.unicodeScalars.first(where: {
          $0.properties.generalCategory == .control
        }) {
          let code = String(control.value, radix: 16, uppercase: true)
          throw ValueError(
            "glyphs must be printable, got U+\(String(repeating: "0", count: 4 - code.count))\(code)"
          )
        }
        let glyphs = text.filter { $0 != " " }.map(String.init)
        guard !glyphs.isEmpty else { throw ValueError("needs at least one glyph") }
        configuration[keyPath: path] = glyphs
      }, render: { $0[keyPath: path].joined(separator: " ") })
  }
}

/// `text` in double quotes when it starts or ends with white space, which an unquoted value
/// loses (the parser strips one pair of quotes around a whole value).
func quotedIfSpaced(_ text: String) -> String {
  guard let first = text.first, let last = text.last, first.isWhitespace || last.isWhitespace
  else { return text }
  return "\"\(text)\""
}

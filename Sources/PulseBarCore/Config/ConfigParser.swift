import PulseBarSystem

/// Parses pulsebar's INI config into a ``Configuration``.
///
/// `[section]` headers, `key = value` lines, `#` or `;` comments on their own
/// lines, blank lines; a leading UTF-8 byte-order mark is skipped. A value is everything after
/// the `=`, spaces at its ends trimmed; one pair of matching quotes (`"…"` or `'…'`) around the
/// whole of it is removed, so a quoted value means what it says and keeps the spaces inside
/// (nothing is escaped inside them). Every key is known in advance (``ConfigKeys``): an
/// unknown section or key, a bad value, an out-of-range number or a key given twice in one
/// section is an error naming the file and line (and the column, for a bad template). An
/// unknown section lists the sections, an unknown key its section's keys. Keys left out keep
/// their defaults. A deprecated key in use and an empty `output.text` are warnings.
package enum ConfigParser {
  /// What a file gave: the configuration, the keys it sets (`section.key`, in the order they
  /// first appear) and its warnings, each `FILE:LINE: …`.
  package struct Parsed: Sendable {
    package var configuration: Configuration
    package var keys: [String]
    package var warnings: [ConfigError]
  }

  /// Parses `text` (the contents of `file`) on top of `base`.
  package static func parse(_ text: String, file: String, base: Configuration = Configuration())
    throws(ConfigError) -> Configuration
  {
    try read(text, file: file, base: base).configuration
  }

  /// Parses as ``parse(_:file:base:)`` and names the keys the file sets (`section.key`, in the
  /// order they first appear), for a reader that uses only some of them (`pulsebar listen`).
  package static func parseListingKeys(
    _ text: String, file: String, base: Configuration = Configuration()
  ) throws(ConfigError) -> (configuration: Configuration, keys: [String]) {
    let parsed = try read(text, file: file, base: base)
    return (parsed.configuration, parsed.keys)
  }

  /// Parses `text` (the contents of `file`) on top of `base`, with the keys and the warnings.
  package static func read(
    _ text: String, file: String, base: Configuration = Configuration()
  ) throws(ConfigError) -> Parsed {
    var parsed = Parsed(configuration: base, keys: [], warnings: [])
    var section: String?
    var lineNumbers: [String: Int] = [:]
    var lineNumber = 0
    var text = Substring(text)
    if text.unicodeScalars.first == "\u{FEFF}" { text = text.dropFirst() }
    // `\r\n` is one Character in Swift: split on it too, or a CRLF file is one long line.
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    for rawLine in lines {
      lineNumber += 1
      let place = ConfigError(file: file, line: lineNumber, message: "")
      let line = rawLine.trimmingWhitespace()
      if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
      if line.hasPrefix("[") {
        section = try sectionName(line, at: place)
        continue
      }
      let (setting, equals) = try setting(line, section: section, at: place)
      let name = "\(setting.section).\(setting.key)"
      if let first = lineNumbers[name] {
        throw place.with("\(name) is given twice: on line \(first) and on line \(lineNumber)")
      }
      let value = try apply(
        setting, line: line, rawLine: rawLine, equals: equals, to: &parsed.configuration,
        at: place)
      if let warning = ConfigWarnings.warning(for: name, value: value) {
        parsed.warnings.append(place.with(warning))
      }
      lineNumbers[name] = lineNumber
      parsed.keys.append(name)
    }
    if let problem = parsed.configuration.crossFieldProblem() {
      let line = problem.keys.compactMap { lineNumbers[$0] }.max() ?? 0
      throw ConfigError(file: file, line: line, message: problem.message)
    }
    return parsed
  }

  /// The section a `[name]` header line opens.
  private static func sectionName(_ line: String, at place: ConfigError) throws(ConfigError)
    -> String
  {
    guard line.hasSuffix("]") else { throw place.with("section header needs a closing ']'") }
    let name = String(line.dropFirst().dropLast()).trimmingWhitespace()
    guard ConfigKeys.sections.contains(name) else {
      throw place.with(
        Suggestion.appending(
          to: "unknown section [\(name)] (known: \(ConfigKeys.sections.joined(separator: ", ")))",
          for: name, among: ConfigKeys.sections))
    }
    return name
  }

  /// The setting a `key = value` line in `section` names, and where its `=` is.
  private static func setting(_ line: String, section: String?, at place: ConfigError)
    throws(ConfigError) -> (Setting, String.Index)
  {
    guard let equals = line.firstIndex(of: "=") else {
      throw place.with("expected 'key = value', got '\(line)'")
    }
    let key = String(line[..<equals]).trimmingWhitespace()
    guard let section else { throw place.with("'\(key)' comes before any [section]") }
    guard let setting = ConfigKeys.setting(section: section, key: key) else {
      let known = ConfigKeys.all.filter { $0.section == section }.map(\.key)
      throw place.with(
        Suggestion.appending(
          to: "unknown key '\(key)' in [\(section)] (known: \(known.joined(separator: ", ")))",
          for: key, among: known))
    }
    return (setting, equals)
  }

  /// Applies the value after `equals` in `line` (`rawLine` untrimmed) to `configuration` and
  /// returns it (unquoted); a bad value's error gets the key and, when it has one, its column
  /// in the line.
  private static func apply(
    _ setting: Setting, line: String, rawLine: Substring, equals: String.Index,
    to configuration: inout Configuration, at place: ConfigError
  ) throws(ConfigError) -> String {
    let (value, quoted) = unquoted(String(line[line.index(after: equals)...]).trimmingWhitespace())
    do {
      try setting.apply(value, &configuration)
      return value
    } catch {
      // The column in the line: where the value starts (inside its quotes), plus the error's
      // place in it.
      let column = error.column.map { column in
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let indent = rawLine.prefix(while: isSpace).count
        let afterEquals = line[line.index(after: equals)...]
        return indent + line.distance(from: line.startIndex, to: equals) + 1
          + afterEquals.prefix(while: isSpace).count + (quoted ? 1 : 0) + column
      }
      var problem = place.with("\(setting.section).\(setting.key): \(error.message)")
      problem.column = column
      throw problem
    }
  }

  /// `value` as a config line spells it so that it reads back the same: in quotes when it
  /// starts or ends with a space, a tab or a quote (which the parser would trim or remove).
  package static func quotedIfNeeded(_ value: String) -> String {
    let edges: Set<Character> = [" ", "\t", "\"", "'"]
    guard let first = value.first, let last = value.last,
      edges.contains(first) || edges.contains(last)
    else { return value }
    return "\"" + value + "\""
  }

  /// `value` without one pair of matching quotes around the whole of it, and whether it had
  /// them.
  static func unquoted(_ value: String) -> (value: String, quoted: Bool) {
    guard value.count >= 2, let first = value.first, first == "\"" || first == "'",
      value.last == first
    else { return (value, false) }
    return (String(value.dropFirst().dropLast()), true)
  }
}

extension Configuration {
  /// A problem between keys (each fine alone), with the keys involved.
  package func crossFieldProblem() -> (keys: [String], message: String)? {
    if lowCutoff >= highCutoff {
      return (
        ["analysis.low_cutoff", "analysis.high_cutoff"],
        "low_cutoff (\(lowCutoff.formattedSetting)) must be below high_cutoff (\(highCutoff.formattedSetting))"
      )
    }
    if channels == .stereo && bars % 2 != 0 {
      return (
        ["general.bars", "general.channels"],
        "bars must be even in stereo (half per channel), got \(bars)"
      )
    }
    return nil
  }
}

extension StringProtocol {
  /// Without leading and trailing spaces, tabs and carriage returns.
  package func trimmingWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
    guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
    let last = lastIndex(where: { !isSpace($0) })!
    return String(self[first...last])
  }
}

extension BinaryFloatingPoint where Self: LosslessStringConvertible {
  /// `50` rather than `50.0`, for messages and the shipped config.
  package var formattedSetting: String {
    self == rounded() && abs(self) < 1e9 ? String(Int(self)) : String(self)
  }
}

extension ConfigError {
  /// This place in a file with `message`.
  fileprivate func with(_ message: String) -> ConfigError {
    ConfigError(file: file, line: line, column: column, message: message)
  }
}

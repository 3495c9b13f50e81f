import PulseBarSystem

/// A config file problem, reported as `FILE:LINE: what is wrong` (or `FILE:LINE:COLUMN:` when
/// the problem is at one place in the line, as a bad template field). The description shows
/// control and invisible characters escaped (``MessageEscaping``), never raw. A warning (a
/// deprecated key, an empty `text`) has the same shape.
package struct ConfigError: Error, Equatable, CustomStringConvertible {
  package var file: String
  /// 1-based line, or 0 for a problem with the file as a whole.
  package var line: Int
  /// 1-based column in characters of the line, when known.
  package var column: Int?
  package var message: String

  package init(file: String, line: Int, column: Int? = nil, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.message = message
  }

  package var description: String {
    let text: String
    if line <= 0 {
      text = "\(file): \(message)"
    } else if let column {
      text = "\(file):\(line):\(column): \(message)"
    } else {
      text = "\(file):\(line): \(message)"
    }
    return MessageEscaping.escaped(text)
  }
}

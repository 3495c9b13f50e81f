import PulseBarSystem

/// A bad value for one key; the parser adds file, line and key (and turns `column`, 1-based in
/// the value, into the line's column).
package struct ValueError: Error, Equatable {
  package var message: String
  package var column: Int?
  package init(_ message: String, column: Int? = nil) {
    self.message = message
    self.column = column
  }
}

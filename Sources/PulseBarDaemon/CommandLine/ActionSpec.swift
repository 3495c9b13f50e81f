/// One word a command takes as its first operand (`pulsebar ctl volume LEVEL`).
package struct ActionSpec: Sendable, Equatable {
  package var name: String
  /// The value that follows it (`LEVEL`), if it takes one.
  package var operand: String?
  /// One line of what it does, lower case, no final period.
  package var help: String

  /// `volume LEVEL`.
  package var signature: String { name + (operand.map { " \($0)" } ?? "") }
}

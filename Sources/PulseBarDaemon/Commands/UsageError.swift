import PulseBarCore

/// A command-line problem: one short line, exit status 2.
package struct UsageError: Error, Equatable, CustomStringConvertible {
  package var message: String
  package init(_ message: String) { self.message = message }
  package var description: String { message }
}

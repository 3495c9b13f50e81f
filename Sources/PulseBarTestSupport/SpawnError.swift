/// A child process could not be started or did not behave in time.
package struct SpawnError: Error, CustomStringConvertible {
  package var message: String
  package var description: String { message }

  package init(message: String) { self.message = message }
}

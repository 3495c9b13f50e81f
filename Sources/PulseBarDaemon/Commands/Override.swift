import PulseBarCore

/// A config key given on the command line.
package struct Override: Equatable {
  package var option: String
  package var section: String
  package var key: String
  package var value: String
}

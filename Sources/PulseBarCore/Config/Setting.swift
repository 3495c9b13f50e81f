/// One config key: where it lives, how to read a value, how to print the current one.
package struct Setting: Sendable {
  package var section: String
  package var key: String
  /// One line of why, as `config/pulsebar.conf` shows it.
  package var help: String
  package let apply: @Sendable (String, inout Configuration) throws(ValueError) -> Void
  /// The value as the config file spells it.
  package let render: @Sendable (Configuration) -> String
}

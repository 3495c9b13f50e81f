/// An option of a command whose parsed options are `Options`: its row in the table and what
/// giving it does. The parser reads nothing else, so the documentation cannot drift from it.
package struct CommandOption<Options>: Sendable {
  package let spec: OptionSpec
  /// Applies the option's value (`nil` for a flag, or an optional value not given).
  let apply: @Sendable (inout Options, String?) throws(UsageError) -> Void

  init(
    _ spec: OptionSpec,
    apply: @escaping @Sendable (inout Options, String?) throws(UsageError) -> Void
  ) {
    self.spec = spec
    self.apply = apply
  }
}

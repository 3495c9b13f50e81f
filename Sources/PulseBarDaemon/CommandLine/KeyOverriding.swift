import PulseBarCore

/// Parsed options that collect config keys given on the command line.
protocol KeyOverriding: SendableMetatype {
  var overrides: [Override] { get set }
}

internal import CPulse

/// Creates the libpulse record streams, the output's and the player's, with the properties
/// every capture stream carries: `node.virtual = true`, which pipewire-pulse copies from the
/// stream's proplist onto its node, so that desktops that list capture nodes as "using the
/// microphone" (KDE Plasma) leave pulsebar out. Plain PulseAudio keeps the property and ignores it.
enum PulseRecordStream {
  /// A new record stream named `name` on `context`, or `nil` (the context's error says why).
  static func new(_ context: OpaquePointer, name: String, spec: inout pa_sample_spec)
    -> OpaquePointer?
  {
    guard let properties = pa_proplist_new() else { return nil }
    defer { pa_proplist_free(properties) }
    pa_proplist_sets(properties, "node.virtual", "true")
    return pa_stream_new_with_proplist(context, name, &spec, nil, properties)
  }
}

internal import CPulse
import PulseBarCore

/// libpulse's introspection, asked for and translated: what the core asks to know
/// (``CaptureAction/describeServer``, a sink, a source; the sink inputs) becomes a request, and
/// each answer a ``CaptureEvent`` handed to ``PulseConnection/receive(_:from:)``.
///
/// No state and no policy: a namespace of requests and translations. Every callback finds the
/// connection through its `userdata`, and the connection drops answers from a context it no
/// longer has.
enum PulseLookups {
  /// Asks for the server info: which server it is and its default sink.
  static func describeServer(_ context: OpaquePointer, _ userdata: UnsafeMutableRawPointer) {
    release(
      pa_context_get_server_info(
        context,
        { context, info, userdata in
          let server = info?.pointee
          let onPipeWire =
            server?.server_name.map { String(cString: $0).contains("PipeWire") } ?? false
          let sink = server?.default_sink_name.map { String(cString: $0) }
          PulseConnection.from(userdata).receive(
            .serverDescribed(onPipeWire: onPipeWire, defaultSink: sink), from: context)
        }, userdata))
  }

  /// Asks for the sink `name`: its index, its monitor, its format and rate.
  static func describeSink(
    _ name: String, _ context: OpaquePointer, _ userdata: UnsafeMutableRawPointer
  ) {
    release(
      pa_context_get_sink_info_by_name(
        context, name,
        { context, info, end, userdata in
          guard end == 0, let sink = info?.pointee, let monitor = sink.monitor_source_name
          else { return }
          let description = SinkDescription(
            index: sink.index, monitorSource: String(cString: monitor),
            int16: sink.sample_spec.format == PulseSampleConverter.int16NativeEndian,
            rate: sink.sample_spec.rate)
          PulseConnection.from(userdata).receive(.sinkDescribed(description), from: context)
        }, userdata))
  }

  /// Asks for the source `name`: the sink it monitors, its format and rate, or that it is
  /// missing.
  static func describeSource(
    _ name: String, _ context: OpaquePointer, _ userdata: UnsafeMutableRawPointer
  ) {
    release(
      pa_context_get_source_info_by_name(
        context, name,
        { context, info, end, userdata in
          let connection = PulseConnection.from(userdata)
          if end < 0 {
            return connection.receive(.sourceMissing(connection.sourceName), from: context)
          }
          guard end == 0, let source = info?.pointee else { return }
          let description = SourceDescription(
            name: String(cString: source.name),
            monitorOfSink: source.monitor_of_sink == UInt32.max ? nil : source.monitor_of_sink,
            int16: source.sample_spec.format == PulseSampleConverter.int16NativeEndian,
            rate: source.sample_spec.rate)
          connection.receive(.sourceDescribed(description), from: context)
        }, userdata))
  }

  /// Asks for every sink input (`index` nil) or one: each answer is a ``ServerStream``.
  static func describeSinkInputs(
    _ index: UInt32?, _ context: OpaquePointer, _ userdata: UnsafeMutableRawPointer
  ) {
    guard let index else {
      return release(
        pa_context_get_sink_input_info_list(
          context, { PulseLookups.sinkInputInfo($0, $1, end: $2, $3) }, userdata))
    }
    release(
      pa_context_get_sink_input_info(
        context, index, { PulseLookups.sinkInputInfo($0, $1, end: $2, $3) }, userdata))
  }

  /// One sink input's info, as a ``CaptureEvent/streamUpdated(_:)``.
  private static func sinkInputInfo(
    _ context: OpaquePointer?, _ info: UnsafePointer<pa_sink_input_info>?, end: Int32,
    _ userdata: UnsafeMutableRawPointer?
  ) {
    guard end == 0, let input = info?.pointee else { return }
    PulseConnection.from(userdata).receive(.streamUpdated(stream(input)), from: context)
  }

  /// A sink input as the core's ``ServerStream``.
  static func stream(_ input: pa_sink_input_info) -> ServerStream {
    func property(_ key: String) -> String? {
      pa_proplist_gets(input.proplist, key).map { String(cString: $0) }
    }
    return ServerStream(
      id: input.index, sink: input.sink, running: input.corked == 0,
      processID: property("application.process.id").flatMap { Int32($0) },
      binary: property("application.process.binary"),
      applicationName: property("application.name"))
  }

  /// A subscription event as a capture event: sink inputs that went away, sinks and sources
  /// that appeared or went away, and server changes (the default); `nil` for a sink input that
  /// appeared or changed, whose info is asked for instead.
  /// `event` is the `pa_subscription_event_type_t`'s raw value.
  static func event(_ event: UInt32, index: UInt32) -> (
    CaptureEvent?, describeSinkInput: Bool
  ) {
    let facility = event & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
    let kind = event & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
    switch facility {
    case PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue:
      if kind == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue { return (.streamRemoved(index), false) }
      return (nil, true)
    case PA_SUBSCRIPTION_EVENT_SERVER.rawValue: return (.devicesChanged, false)
    case PA_SUBSCRIPTION_EVENT_SINK.rawValue, PA_SUBSCRIPTION_EVENT_SOURCE.rawValue:
      return (kind == PA_SUBSCRIPTION_EVENT_CHANGE.rawValue ? nil : .devicesChanged, false)
    default: return (nil, false)
    }
  }

  /// Drops our reference to an operation we do not wait for.
  static func release(_ operation: OpaquePointer?) {
    if let operation { pa_operation_unref(operation) }
  }
}

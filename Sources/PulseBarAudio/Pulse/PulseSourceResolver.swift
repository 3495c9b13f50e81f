internal import CPulse
import PulseBarCore
import PulseBarSystem

/// What the output's record stream records, looked up on the server: the server info first
/// (which server it is, the default sink), then the default sink's monitor or the named
/// source; and, following the default, the source the server moved the stream to.
///
/// A type of its own because the lookups and ``DefaultSinkFollower``'s decisions on their
/// answers are one concern, apart from the stream's own life (``PulseOutputStream``, which it
/// hands the source to). Its callbacks find it through their `userdata`, an unretained
/// pointer; the connection owns it.
final class PulseSourceResolver: PulseCallbackTarget {
  unowned let connection: PulseConnection
  /// What the stream records (the default sink's monitor or the named source), the sink that
  /// drives the activity, and a server move still to confirm.
  var follower: DefaultSinkFollower
  /// The server is PipeWire (pipewire-pulse names itself "PulseAudio (on PipeWire …)"):
  /// learnt from the server info each time the target is resolved.
  private(set) var onPipeWire = false
  /// The recorded source's own rate (on PipeWire, the graph's).
  private(set) var sourceRate: UInt32 = 0

  init(connection: PulseConnection) {
    self.connection = connection
    follower = DefaultSinkFollower(followsDefault: connection.settings.sourceName == nil)
  }

  /// Looks up what to record: the server info first (which server it is, the default sink),
  /// then the named source or the default sink's monitor.
  func resolve() {
    guard let context = connection.context, connection.isReady else { return }
    connection.release(
      pa_context_get_server_info(
        context,
        { context, info, userdata in PulseSourceResolver.from(userdata).serverInfo(context, info) },
        userdata))
  }

  private func serverInfo(_ replied: OpaquePointer?, _ info: UnsafePointer<pa_server_info>?) {
    connection.assertOnLoop()
    guard let context = connection.context, replied == context else { return }
    onPipeWire = info?.pointee.server_name.map { String(cString: $0).contains("PipeWire") } ?? false
    if let name = connection.settings.sourceName {
      requestSourceInfo(name)
      return
    }
    guard let sinkName = info?.pointee.default_sink_name else {
      // No sink at all: nothing to record until one appears (a sink event).
      connection.output.close()
      follower.nothingToRecord()
      connection.buffer.updateStatus { $0.sourceName = "" }
      connection.output.updateActivity()
      return
    }
    connection.release(
      pa_context_get_sink_info_by_name(
        context, sinkName,
        { context, info, end, userdata in
          PulseSourceResolver.from(userdata).sinkInfo(context, info, end: end)
        },
        userdata))
  }

  private func sinkInfo(
    _ replied: OpaquePointer?, _ info: UnsafePointer<pa_sink_info>?, end: Int32
  ) {
    connection.assertOnLoop()
    guard replied == connection.context, end == 0, let sink = info?.pointee,
      let monitor = sink.monitor_source_name
    else { return }
    record(
      source: String(cString: monitor), monitoring: sink.index, format: sink.sample_spec.format,
      rate: sink.sample_spec.rate)
  }

  /// Asks for `name`'s source info: the named source to record, or (following the default)
  /// the source the server moved the stream to.
  func requestSourceInfo(_ name: String) {
    guard let context = connection.context else { return }
    connection.release(
      pa_context_get_source_info_by_name(
        context, name,
        { context, info, end, userdata in
          PulseSourceResolver.from(userdata).sourceInfo(context, info, end: end)
        }, userdata))
  }

  private func sourceInfo(
    _ replied: OpaquePointer?, _ info: UnsafePointer<pa_source_info>?, end: Int32
  ) {
    connection.assertOnLoop()
    guard replied == connection.context else { return }
    guard connection.settings.sourceName != nil else {
      // Following the default: the server moved the stream to this source; its sink drives
      // the activity from now on.
      guard end == 0, let source = info?.pointee else { return }
      let name = String(cString: source.name)
      let sink = source.monitor_of_sink == UInt32.max ? nil : source.monitor_of_sink
      switch follower.learned(sink: sink, of: name) {
      case .ignored: return
      case .unchanged: break
      case .changed: debugRecording(name, monitoring: sink)
      }
      connection.output.updateActivity()
      return
    }
    if end < 0 {
      // No such source (yet): wait for a source event.
      if follower.namedSourceMissing(), let name = connection.settings.sourceName {
        connection.log("PulseAudio: no source named \(name); waiting for it")
      }
      connection.output.close()
      connection.output.updateActivity()
      return
    }
    guard end == 0, let source = info?.pointee else { return }
    let sink = source.monitor_of_sink
    record(
      source: String(cString: source.name), monitoring: sink == UInt32.max ? nil : sink,
      format: source.sample_spec.format, rate: source.sample_spec.rate)
  }

  /// Records `source` (the monitor of `sink`, if it is one); the output's stream is remade
  /// only when the source changed (``PulseOutputStream/open(source:format:rate:)``). `format`
  /// and `rate` are the source's own: on PipeWire the rate is the graph's, which sizes the
  /// fragment.
  func record(source: String, monitoring sink: UInt32?, format: pa_sample_format_t, rate: UInt32) {
    switch follower.lookedUp(source, monitoring: sink, at: monotonicSeconds()) {
    case .keepMove(let lookAgainAt):
      guard let lookAgainAt else { return }
      connection.debug?(
        "PulseAudio: the server still names the sink of \(source) its default; looking again in 2 s"
      )
      connection.retryTimer.arm(at: lookAgainAt)
      return
    case .keep(let sinkChanged):
      // A new sink under a stream the server already moved there.
      if sinkChanged { debugRecording(source, monitoring: sink) }
      sourceRate = rate
      connection.output.updateActivity()
      return
    case .record:
      debugRecording(source, monitoring: sink)
      sourceRate = rate
    }
    connection.output.open(source: source, format: format, rate: rate)
  }

  /// The `-v` line that says what the stream records.
  private func debugRecording(_ source: String, monitoring sink: UInt32?) {
    connection.debug?(
      "PulseAudio: recording \(source)" + (sink.map { " (the monitor of sink #\($0))" } ?? ""))
  }
}

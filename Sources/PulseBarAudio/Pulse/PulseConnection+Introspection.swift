internal import CPulse

// MARK: - Finding the source and following the server

extension PulseConnection {
  /// Looks up what to record: the server info first (which server it is, the default sink),
  /// then the named source or the default sink's monitor.
  func resolveTarget() {
    guard let context, isReady else { return }
    release(
      pa_context_get_server_info(
        context,
        { context, info, userdata in PulseConnection.from(userdata).serverInfo(context, info) },
        userdata))
  }

  private func serverInfo(_ replied: OpaquePointer?, _ info: UnsafePointer<pa_server_info>?) {
    assertOnLoop()
    guard let context, replied == context else { return }
    onPipeWire = info?.pointee.server_name.map { String(cString: $0).contains("PipeWire") } ?? false
    if let name = settings.sourceName {
      requestSourceInfo(name)
      return
    }
    guard let sinkName = info?.pointee.default_sink_name else {
      // No sink at all: nothing to record until one appears (a sink event).
      closeStream()
      follower.nothingToRecord()
      buffer.updateStatus { $0.sourceName = "" }
      updateActivity()
      return
    }
    release(
      pa_context_get_sink_info_by_name(
        context, sinkName,
        { context, info, end, userdata in
          PulseConnection.from(userdata).sinkInfo(context, info, end: end)
        },
        userdata))
  }

  private func sinkInfo(
    _ replied: OpaquePointer?, _ info: UnsafePointer<pa_sink_info>?, end: Int32
  ) {
    assertOnLoop()
    guard replied == context, end == 0, let sink = info?.pointee,
      let monitor = sink.monitor_source_name
    else { return }
    record(
      source: String(cString: monitor), monitoring: sink.index, format: sink.sample_spec.format,
      rate: sink.sample_spec.rate)
  }

  /// Asks for `name`'s source info: the named source to record, or (following the default)
  /// the source the server moved the stream to.
  func requestSourceInfo(_ name: String) {
    guard let context else { return }
    release(
      pa_context_get_source_info_by_name(
        context, name,
        { context, info, end, userdata in
          PulseConnection.from(userdata).sourceInfo(context, info, end: end)
        }, userdata))
  }

  private func sourceInfo(
    _ replied: OpaquePointer?, _ info: UnsafePointer<pa_source_info>?, end: Int32
  ) {
    assertOnLoop()
    guard replied == context else { return }
    guard settings.sourceName != nil else {
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
      updateActivity()
      return
    }
    if end < 0 {
      // No such source (yet): wait for a source event.
      if follower.namedSourceMissing(), let name = settings.sourceName {
        log("PulseAudio: no source named \(name); waiting for it")
      }
      closeStream()
      updateActivity()
      return
    }
    guard end == 0, let source = info?.pointee else { return }
    let sink = source.monitor_of_sink
    record(
      source: String(cString: source.name), monitoring: sink == UInt32.max ? nil : sink,
      format: source.sample_spec.format, rate: source.sample_spec.rate)
  }

  // MARK: - Sink inputs

  func requestSinkInputs(_ context: OpaquePointer) {
    release(
      pa_context_get_sink_input_info_list(
        context,
        { context, info, end, userdata in
          PulseConnection.from(userdata).sinkInputInfo(context, info, end: end)
        },
        userdata))
  }

  private func sinkInputInfo(
    _ replied: OpaquePointer?, _ info: UnsafePointer<pa_sink_input_info>?, end: Int32
  ) {
    assertOnLoop()
    guard replied == context, end == 0, let input = info?.pointee else { return }
    func property(_ key: String) -> String? {
      pa_proplist_gets(input.proplist, key).map { String(cString: $0) }
    }
    sinkInputs.update(
      index: input.index, sink: input.sink, corked: input.corked != 0,
      application: SinkInputTable.ApplicationProperties(
        processID: property("application.process.id").flatMap { Int32($0) },
        binary: property("application.process.binary"), name: property("application.name")))
    failedInputs.remove(input.index)
    reconcileScope()
  }

  // MARK: - Events

  /// A subscription event: sink inputs update the table; server, sink and
  /// source additions or removals (and server changes: the default sink) re-resolve.
  func serverEvent(_ replied: OpaquePointer?, event: pa_subscription_event_type_t, index: UInt32) {
    assertOnLoop()
    guard let context, replied == context else { return }
    let facility = event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
    let kind = event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
    switch facility {
    case PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue:
      if kind == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue {
        sinkInputs.remove(index: index)
        failedInputs.remove(index)
        reconcileScope()
      } else {
        release(
          pa_context_get_sink_input_info(
            context, index,
            { context, info, end, userdata in
              PulseConnection.from(userdata).sinkInputInfo(context, info, end: end)
            }, userdata))
      }
    case PA_SUBSCRIPTION_EVENT_SERVER.rawValue:
      resolveTarget()
    case PA_SUBSCRIPTION_EVENT_SINK.rawValue, PA_SUBSCRIPTION_EVENT_SOURCE.rawValue:
      if kind != PA_SUBSCRIPTION_EVENT_CHANGE.rawValue { resolveTarget() }
    default: break
    }
  }
}

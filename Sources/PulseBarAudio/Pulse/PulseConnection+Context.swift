internal import CPulse
import PulseBarCore

// MARK: - The context

extension PulseConnection {
  /// Creates a context and starts connecting (no autospawn); a failure is a lost server.
  func connect() {
    guard context == nil else { return }
    guard let context = pa_context_new(api, "pulsebar") else {
      return send(.serverLost(reason: "cannot create a context"))
    }
    self.context = context
    pa_context_set_state_callback(
      context, { context, userdata in PulseConnection.from(userdata).contextStateChanged(context) },
      userdata)
    pa_context_set_subscribe_callback(
      context,
      { context, event, index, userdata in
        PulseConnection.from(userdata).serverEvent(context, event: event, index: index)
      }, userdata)
    // A refused connection may fail synchronously: the state callback has then already said
    // so (and the context is gone).
    if pa_context_connect(context, settings.server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0,
      self.context == context
    {
      send(.serverLost(reason: Self.errorText(context)))
    }
  }

  private func contextStateChanged(_ changed: OpaquePointer?) {
    guard let context, changed == context else { return }
    switch pa_context_get_state(context) {
    case PA_CONTEXT_READY:
      let mask = pa_subscription_mask_t(
        rawValue: PA_SUBSCRIPTION_MASK_SERVER.rawValue | PA_SUBSCRIPTION_MASK_SINK.rawValue
          | PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue | PA_SUBSCRIPTION_MASK_SOURCE.rawValue)
      PulseLookups.release(pa_context_subscribe(context, mask, nil, nil))
      PulseLookups.describeSinkInputs(nil, context, userdata)
      send(.connected)
    case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
      send(.serverLost(reason: Self.errorText(context)))
    default: break
    }
  }

  /// A subscription event: a sink input's info is asked for; the rest are capture events.
  private func serverEvent(
    _ replied: OpaquePointer?, event: pa_subscription_event_type_t, index: UInt32
  ) {
    guard let context, replied == context else { return }
    let (captureEvent, describe) = PulseLookups.event(event.rawValue, index: index)
    if describe { PulseLookups.describeSinkInputs(index, context, userdata) }
    if let captureEvent { send(captureEvent) }
  }

  /// Frees the context, which calls back no more.
  func closeContext() {
    guard let context else { return }
    pa_context_set_state_callback(context, nil, nil)
    pa_context_set_subscribe_callback(context, nil, nil)
    pa_context_disconnect(context)
    pa_context_unref(context)
    self.context = nil
  }

  static func errorText(_ context: OpaquePointer) -> String {
    String(cString: pa_strerror(pa_context_errno(context)))
  }
}

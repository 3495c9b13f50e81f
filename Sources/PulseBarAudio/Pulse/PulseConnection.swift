internal import CPulse
import Glibc
import PulseBarCore
import PulseBarSystem

/// The libpulse side of ``PulseSource``: one context (connecting, losing the server and
/// retrying, the subscription events, shutting down) and the sink-input table, and the parts
/// that record through it, each a type of its own so each stays one concern:
/// - ``PulseSourceResolver`` finds what the output records (the server info, the default
///   sink's monitor or the named source) and follows the server's moves;
/// - ``PulseOutputStream`` records that source, corked while nothing plays;
/// - ``PulsePlayerStreamSet`` records the active player's sink inputs alone;
/// - ``PulseRetryTimer`` is the one back-off and look-again timer;
/// - ``PulseSampleConverter`` converts s16 fragments for both kinds of stream.
///
/// The resolver, the output and the player set share the context, the settings, the buffer
/// and the table through an unowned reference back to the connection, which owns every part
/// for its whole life.
///
/// Confinement: touched only on the thread that iterates the `pa_mainloop` (the engine's, or a
/// test's driver), from libpulse callbacks inside that iteration or from ``PulseSource``'s
/// `start`, `wait`, `formatChanged` and `stop` (asserted in debug builds). Callbacks find it
/// (or the part they belong to) through their `userdata`, an unretained pointer;
/// ``PulseSource`` keeps it alive until the mainloop is freed.
final class PulseConnection: PulseCallbackTarget {
  private let api: UnsafeMutablePointer<pa_mainloop_api>
  /// The thread that made the connection and iterates its mainloop.
  private let loopThread = pthread_self()
  /// Channels and fps change on a reload (``PulseOutputStream/reformat(_:)``); the analysis
  /// rate with the engine's consumers (``analysisRateChanged(_:)``); the rest is fixed.
  var settings: PulseSource.Settings
  let buffer: CaptureBuffer
  /// Writes one log line (no prefix, no newline).
  let log: CaptureLog
  /// Writes one debug line (`-v`): sink switches, stream states; `nil` when nobody reads them.
  let debug: CaptureLog?

  private(set) var context: OpaquePointer?
  private(set) var sinkInputs = SinkInputTable()
  /// Converts the s16 fragments of every stream (one at a time: all run on this loop).
  let converter = PulseSampleConverter()
  /// Retries with back-off, one line when the server goes and one when it is back.
  private var outage = OutagePolicy()
  private var stopped = false

  // The parts are lazy only because they refer back to the connection. Each is made on its
  // first use, always before any stream's callbacks run (opening a stream touches the
  // resolver, the output and the player set), so a read callback never makes one.
  private(set) lazy var resolver = PulseSourceResolver(connection: self)
  private(set) lazy var output = PulseOutputStream(connection: self)
  private(set) lazy var players = PulsePlayerStreamSet(connection: self)
  private(set) lazy var retryTimer = PulseRetryTimer(api: api) { [unowned self] in
    self.retryFired()
  }

  init(
    mainloop: OpaquePointer, settings: PulseSource.Settings, buffer: CaptureBuffer,
    log: @escaping CaptureLog, debug: CaptureLog? = nil
  ) {
    api = pa_mainloop_get_api(mainloop)
    self.log = log
    self.debug = debug
    self.settings = settings
    self.buffer = buffer
  }

  /// Debug check that we run where this object is confined: the mainloop's thread.
  func assertOnLoop() {
    assert(pthread_equal(loopThread, pthread_self()) != 0, "PulseConnection touched off its loop")
  }

  // MARK: - Context

  /// Creates a context and starts connecting (no autospawn); failures go to the retry path.
  func connect() {
    guard !stopped, context == nil else { return }
    guard let context = pa_context_new(api, "pulsebar") else {
      lost(reason: "cannot create a context")
      return
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
    // A refused connection may fail synchronously: the state callback then has
    // already called `lost` and freed the context.
    if pa_context_connect(context, settings.server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0,
      self.context == context
    {
      lost(reason: errorText(context))
    }
  }

  private func contextStateChanged(_ changed: OpaquePointer?) {
    assertOnLoop()
    guard let context, changed == context else { return }
    switch pa_context_get_state(context) {
    case PA_CONTEXT_READY: contextReady(context)
    case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED: lost(reason: errorText(context))
    default: break
    }
  }

  private func contextReady(_ context: OpaquePointer) {
    if outage.connected() { log("PulseAudio: connected again") }
    debug?("PulseAudio: connected to the server")
    buffer.updateStatus { $0.connected = true }
    let mask = pa_subscription_mask_t(
      rawValue: PA_SUBSCRIPTION_MASK_SERVER.rawValue | PA_SUBSCRIPTION_MASK_SINK.rawValue
        | PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue | PA_SUBSCRIPTION_MASK_SOURCE.rawValue)
    release(pa_context_subscribe(context, mask, nil, nil))
    requestSinkInputs(context)
    resolver.resolve()
  }

  /// The server is gone or refused us: log once per outage, drop everything, retry later.
  func lost(reason: String) {
    let retry = outage.lost()
    if retry.announce {
      log(
        "PulseAudio: \(reason); retrying with back-off (is pulseaudio or pipewire-pulse running? `pactl info` tells)"
      )
    }
    players.closeAll()
    output.close()
    closeContext()
    sinkInputs.removeAll()
    players.failedInputs.removeAll()
    resolver.follower.nothingToRecord()
    buffer.updateStatus {
      $0.connected = false
      $0.activity = .none
    }
    retryTimer.arm(after: retry.after)
  }

  private func closeContext() {
    guard let context else { return }
    pa_context_set_state_callback(context, nil, nil)
    pa_context_set_subscribe_callback(context, nil, nil)
    pa_context_disconnect(context)
    pa_context_unref(context)
    self.context = nil
  }

  /// True once the context is connected and authorised.
  var isReady: Bool {
    guard let context else { return false }
    return pa_context_get_state(context) == PA_CONTEXT_READY
  }

  /// Arms the retry timer with the next back-off delay (a record stream that failed).
  func scheduleRetry() { retryTimer.arm(after: outage.failedWhileConnected()) }

  /// Reconnects when the context is gone, else looks up the source again (after a stream failure).
  private func retryFired() {
    assertOnLoop()
    if context == nil {
      connect()
    } else if isReady {
      resolver.resolve()
    }
  }

  /// Tears everything down for good (``PulseSource/stop()``).
  func shutdown() {
    stopped = true
    retryTimer.free()
    players.closeAll()
    output.close()
    closeContext()
    buffer.updateStatus {
      $0.connected = false
      $0.activity = .none
    }
  }

  /// The engine analyses at `rate` frames a second now: streams already on the steady
  /// fragment take the new size (``PulseSource/Settings/steadyFrames``).
  func analysisRateChanged(_ rate: Int) {
    assertOnLoop()
    let before = settings.steadyFrames
    settings.analysisRate = rate
    // On PipeWire the fragment is the graph's quantum whatever the rate.
    guard settings.steadyFrames != before, !resolver.onPipeWire else { return }
    output.steadyFragmentChanged()
    players.steadyFragmentChanged()
  }

  // MARK: - Sink inputs and events

  private func requestSinkInputs(_ context: OpaquePointer) {
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
    players.failedInputs.remove(input.index)
    players.reconcile()
  }

  /// A subscription event: sink inputs update the table; server, sink and
  /// source additions or removals (and server changes: the default sink) re-resolve.
  private func serverEvent(
    _ replied: OpaquePointer?, event: pa_subscription_event_type_t, index: UInt32
  ) {
    assertOnLoop()
    guard let context, replied == context else { return }
    let facility = event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
    let kind = event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
    switch facility {
    case PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue:
      if kind == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue {
        sinkInputs.remove(index: index)
        players.failedInputs.remove(index)
        players.reconcile()
      } else {
        release(
          pa_context_get_sink_input_info(
            context, index,
            { context, info, end, userdata in
              PulseConnection.from(userdata).sinkInputInfo(context, info, end: end)
            }, userdata))
      }
    case PA_SUBSCRIPTION_EVENT_SERVER.rawValue:
      resolver.resolve()
    case PA_SUBSCRIPTION_EVENT_SINK.rawValue, PA_SUBSCRIPTION_EVENT_SOURCE.rawValue:
      if kind != PA_SUBSCRIPTION_EVENT_CHANGE.rawValue { resolver.resolve() }
    default: break
    }
  }

  // MARK: - Helpers

  func errorText(_ context: OpaquePointer) -> String {
    String(cString: pa_strerror(pa_context_errno(context)))
  }

  /// Drops our reference to an operation we do not wait for.
  func release(_ operation: OpaquePointer?) {
    if let operation { pa_operation_unref(operation) }
  }

  /// Clears a record stream's state and read callbacks, disconnects it if it is connected or
  /// connecting, and drops our reference: it never calls back again.
  func free(stream: OpaquePointer) {
    pa_stream_set_state_callback(stream, nil, nil)
    pa_stream_set_read_callback(stream, nil, nil)
    let state = pa_stream_get_state(stream)
    if state == PA_STREAM_READY || state == PA_STREAM_CREATING { pa_stream_disconnect(stream) }
    pa_stream_unref(stream)
  }
}

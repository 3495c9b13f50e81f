internal import CPulse
import Glibc
import PulseBarCore
import PulseBarSystem

/// The libpulse side of ``PulseSource``: one context, at most one record
/// stream, the sink-input table and the retry timer.
///
/// Confinement: touched only on the thread that iterates the `pa_mainloop` (the engine's, or a
/// test's driver), from libpulse callbacks inside that iteration or from ``PulseSource``'s
/// `start`, `wait`, `formatChanged` and `stop` (asserted in debug builds). Callbacks find it
/// through their `userdata`, an unretained pointer; ``PulseSource`` keeps it alive until the
/// mainloop is freed.
final class PulseConnection {
  let api: UnsafeMutablePointer<pa_mainloop_api>
  /// The thread that made the connection and iterates its mainloop.
  private let loopThread = pthread_self()
  /// Channels and fps change on a reload (``reformat(_:)``); the rest is fixed.
  var settings: PulseSource.Settings
  let buffer: CaptureBuffer
  /// Writes one log line (no prefix, no newline).
  let log: PulseSource.Log
  /// Writes one debug line (`-v`): sink switches, stream states; `nil` when nobody reads them.
  let debug: PulseSource.Log?

  var context: OpaquePointer?
  var stream: OpaquePointer?
  /// What the stream records (the default sink's monitor or the named source), the sink that
  /// drives the activity, and a server move still to confirm.
  var follower: DefaultSinkFollower
  /// The current stream's fragment (onset or steady) and cork state.
  var fragment = RecordFragment(adapts: false, steadyAfterFrames: 0, corked: false)
  /// The server is PipeWire (pipewire-pulse names itself "PulseAudio (on PipeWire …)"):
  /// learnt from the server info each time the target is resolved.
  var onPipeWire = false
  /// The recorded source's own rate (on PipeWire, the graph's).
  var sourceRate: UInt32 = 0
  /// The stream delivers s16 (the source's own format), converted through `scratch`.
  var streamIsInt16 = false
  /// Conversion space for s16 fragments, allocated once (a whole number of sample frames).
  let scratch: UnsafeMutableBufferPointer<Float>
  var sinkInputs = SinkInputTable()
  /// What the bars record: the active player's sink inputs or the whole output.
  var selection: PlayerStreamSelection
  /// The active MPRIS player, as the engine last said.
  var player: PlayerAudioIdentity?
  /// What is recorded now, and why (``reconcileScope()``).
  var target = CaptureTarget.output(.noPlayer)
  /// The record streams on the player's sink inputs, while ``target`` is the player.
  var playerStreams: [PlayerRecordStream] = []
  /// Sink inputs the server would not record alone; tried again once they change.
  var failedInputs: Set<UInt32> = []
  /// Sums the player's streams (stereo-sized; a stream may lag 50 ms behind the others).
  let mixer: StreamMixer
  var retryTimer: OpaquePointer?
  /// Retries with back-off, one line when the server goes and one when it is back.
  var outage = OutagePolicy()
  var stopped = false

  init(
    mainloop: OpaquePointer, settings: PulseSource.Settings, buffer: CaptureBuffer,
    log: @escaping PulseSource.Log, debug: PulseSource.Log? = nil
  ) {
    api = pa_mainloop_get_api(mainloop)
    self.log = log
    self.debug = debug
    self.settings = settings
    follower = DefaultSinkFollower(followsDefault: settings.sourceName == nil)
    selection = PlayerStreamSelection(scope: settings.scope)
    if settings.sourceName != nil || settings.scope == .output { target = .output(.scopeIsOutput) }
    mixer = StreamMixer(maximumLag: settings.sampleRate / 20 * CaptureFormat.maxChannels)
    self.buffer = buffer
    // Sized for the most channels a reload can ask for, and a whole number of sample frames
    // at every channel count.
    scratch = .allocate(capacity: 4096 * CaptureFormat.maxChannels)
  }

  deinit { scratch.deallocate() }

  /// The `userdata` every callback gets.
  var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  /// The connection behind a callback's `userdata`.
  static func from(_ userdata: UnsafeMutableRawPointer?) -> PulseConnection {
    Unmanaged<PulseConnection>.fromOpaque(userdata!).takeUnretainedValue()
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
    resolveTarget()
  }

  /// The server is gone or refused us: log once per outage, drop everything, retry later.
  func lost(reason: String) {
    let retry = outage.lost()
    if retry.announce {
      log(
        "PulseAudio: \(reason); retrying with back-off (is pulseaudio or pipewire-pulse running? `pactl info` tells)"
      )
    }
    closePlayerStreams()
    closeStream()
    closeContext()
    sinkInputs.removeAll()
    failedInputs.removeAll()
    follower.nothingToRecord()
    buffer.updateStatus {
      $0.connected = false
      $0.activity = .none
    }
    armTimer(after: retry.after)
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

  // MARK: - Retry timer

  /// Arms the retry timer with the next back-off delay (a record stream that failed).
  func scheduleRetry() { armTimer(after: outage.failedWhileConnected()) }

  /// Arms the retry timer for a look at the default sink at `time` (monotonic seconds), which
  /// moves no back-off on (``DefaultSinkFollower``).
  func armTimer(at time: Double) { armTimer(after: max(0, time - monotonicSeconds())) }

  /// Arms the one retry timer to fire in `seconds`.
  func armTimer(after seconds: Double) {
    guard !stopped else { return }
    var when = timeval()
    gettimeofday(&when, nil)
    pa_timeval_add(&when, UInt64((seconds * 1_000_000).rounded()))
    if let retryTimer {
      api.pointee.time_restart(retryTimer, &when)
    } else {
      retryTimer = api.pointee.time_new(
        api, &when, { _, _, _, userdata in PulseConnection.from(userdata).retryFired() }, userdata)
    }
  }

  /// Reconnects when the context is gone, else looks up the source again (after a stream failure).
  private func retryFired() {
    assertOnLoop()
    if context == nil {
      connect()
    } else if isReady {
      resolveTarget()
    }
  }

  /// Tears everything down for good (``PulseSource/stop()``).
  func shutdown() {
    stopped = true
    if let retryTimer {
      api.pointee.time_free(retryTimer)
      self.retryTimer = nil
    }
    closePlayerStreams()
    closeStream()
    closeContext()
    buffer.updateStatus {
      $0.connected = false
      $0.activity = .none
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
}

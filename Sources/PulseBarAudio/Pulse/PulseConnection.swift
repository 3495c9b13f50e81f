internal import CPulse
import Glibc
import PulseBarCore
import PulseBarSystem

/// The PulseAudio adapter of the capture: one libpulse context and the ``CaptureCore`` that
/// decides everything about it. libpulse's callbacks become ``CaptureEvent``s
/// (``receive(_:from:)``); the core's ``CaptureAction``s become library calls
/// (``perform(_:)``), through three parts that hold no policy and no reference to each other
/// or back to the connection: ``PulseLookups`` (introspection), ``PulseRecordStreams`` (the
/// record streams and their fragments into the buffer) and ``PulseTimer``.
///
/// Every libpulse callback, the parts' included, finds the connection through its `userdata`,
/// an unretained pointer; ``PulseSource`` keeps it alive until the mainloop is freed.
///
/// Confined to the thread that iterates the `pa_mainloop` (the engine's, or a test's driver):
/// touched from libpulse callbacks inside that iteration or from ``PulseSource``'s `start`,
/// `wait`, `follow`, `reconfigure` and `stop`
/// (``ThreadConfinement``, asserted in debug builds at each entry).
final class PulseConnection: PulseCallbackTarget {
  let api: UnsafeMutablePointer<pa_mainloop_api>
  private var confinement = ThreadConfinement()
  /// Channels and fps change on a reload, the analysis rate with the engine's consumers
  /// (``reconfigure(_:)``); the rest is fixed.
  private(set) var settings: PulseSource.Settings
  private let log: CaptureLog
  /// Writes one debug line (`-v`); `nil` when nobody reads them.
  private let debug: CaptureLog?
  var context: OpaquePointer?
  private let driver: CaptureCoreDriver
  private let streams: PulseRecordStreams
  private let timer: PulseTimer

  init(
    mainloop: OpaquePointer, settings: PulseSource.Settings, buffer: CaptureBuffer,
    log: @escaping CaptureLog, debug: CaptureLog? = nil
  ) {
    api = pa_mainloop_get_api(mainloop)
    self.settings = settings
    self.log = log
    self.debug = debug
    driver = CaptureCoreDriver(
      CaptureCore(
        CaptureConfiguration(
          namedSource: settings.sourceName, scope: settings.scope, sampleRate: settings.sampleRate,
          parentOf: { ProcessTable.parent(of: $0) }))
    )
    streams = PulseRecordStreams(buffer: buffer)
    timer = PulseTimer(api: api)
  }

  /// The buffer the streams record into.
  var buffer: CaptureBuffer { streams.buffer }

  /// The named source, for a lookup that found none.
  var sourceName: String { settings.sourceName ?? "" }

  // MARK: - Events in

  /// Hands `event` to the core and carries out what it decides (``CaptureCoreDriver``).
  func send(_ event: CaptureEvent) {
    confinement.check("PulseConnection")
    driver.send(event) { perform($0) }
  }

  /// An answer or event from `replied`'s callbacks: dropped unless that is the current context.
  func receive(_ event: CaptureEvent, from replied: OpaquePointer?) {
    guard let context, replied == context else { return }
    send(event)
  }

  /// The source starts: connect.
  func start() { send(.start) }

  /// Tears everything down for good (``PulseSource/stop()``).
  func shutdown() {
    send(.stop)
    streams.closeAll()
    timer.free()
  }

  func follow(player: PlayerAudioIdentity?) { send(.playerChanged(player)) }

  /// A reload or the engine's consumers changed `change`'s parts: one core event, when
  /// anything the capture records by changed. A new channel count or fps makes the streams
  /// again; a new analysis rate that resizes the steady fragment
  /// (``PulseSource/Settings/steadyFrames``) resizes the streams already on it.
  func reconfigure(_ change: CaptureChange) {
    let steadyBefore = settings.steadyFrames
    var formatChanged = false
    if let format = change.format,
      settings.channels != format.channels || settings.fps != format.fps
    {
      settings.channels = format.channels
      settings.fps = format.fps
      formatChanged = true
    }
    if let rate = change.analysisRate { settings.analysisRate = rate }
    if let scope = change.scope { settings.scope = scope }
    let steadyResized = settings.steadyFrames != steadyBefore
    guard formatChanged || steadyResized || change.scope != nil else { return }
    send(.reconfigured(scope: change.scope, format: formatChanged, steadyFragment: steadyResized))
  }

  // MARK: - Actions out

  private func perform(_ action: CaptureAction) {
    switch action {
    case .connect: connect()
    case .disconnect: closeContext()
    case .describeServer: context.map { PulseLookups.describeServer($0, userdata) }
    case .describeSink(let name): context.map { PulseLookups.describeSink(name, $0, userdata) }
    case .describeSource(let name):
      context.map { PulseLookups.describeSource(name, $0, userdata) }
    case .open(let request): open(request)
    case .close(let id): streams.close(id)
    case .cork(let id, let corked): streams.cork(id, corked)
    case .setFragment(let id, let size):
      if !streams.isMixed(id), let debug {
        let steady = size == .steady
        let frames = steady ? settings.steadyFrames : PulseSource.Settings.onsetFragmentFrames
        debug(
          "PulseAudio: fragment \(frames) frames (\(steady ? "music plays steadily" : "ready for the next onset"))"
        )
      }
      streams.setFragment(id, size, settings: settings)
    case .mix(let ids): streams.mix(ids)
    case .startGeneration(let marking, let sourceName):
      buffer.startGeneration(markingSwitch: marking, sourceName: sourceName)
    case .armTimer(let time):
      timer.arm(after: time - driver.now, userdata: userdata) { _, _, _, userdata in
        PulseConnection.from(userdata).send(.timerFired)
      }
    case .publish(let status): buffer.publish(status)
    case .log(let line): log(line)
    case .debug(let line): debug?(line)
    }
  }

  private func open(_ request: RecordRequest) {
    guard let context else { return send(.recordStreamRefused(request.id, reason: "no server")) }
    let callbacks = PulseRecordStreams.Callbacks(
      state: { stream, userdata in PulseConnection.from(userdata).streamStateChanged(stream) },
      read: { stream, _, userdata in PulseConnection.from(userdata).readable(stream) },
      moved: { stream, userdata in PulseConnection.from(userdata).streamMoved(stream) })
    if let refused = streams.open(
      request, on: context, settings: settings, callbacks: callbacks, userdata: userdata)
    {
      send(.recordStreamRefused(request.id, reason: refused))
    }
  }

  // MARK: - Record stream callbacks

  private func streamStateChanged(_ stream: OpaquePointer?) {
    guard let id = streams.id(of: stream) else { return }
    switch streams.state(of: stream) {
    case PA_STREAM_READY: send(.recordStreamReady(id))
    case PA_STREAM_FAILED, PA_STREAM_TERMINATED: send(.recordStreamEnded(id))
    default: break
    }
  }

  private func streamMoved(_ stream: OpaquePointer?) {
    guard let id = streams.id(of: stream) else { return }
    send(.recordStreamMoved(id, to: streams.device(of: stream)))
  }

  /// The read callback: every readable fragment, told to the core, kept or dropped as it says.
  /// The buffer's eventfd is not signalled: this runs inside the engine's own wait, which
  /// reads the buffer after it.
  private func readable(_ stream: OpaquePointer?) {
    streams.read(stream, channels: settings.channels) { id, frames in
      send(.fragment(id, frames: frames))
      return driver.core.keepsFragments(of: id)
    }
  }
}

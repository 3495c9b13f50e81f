internal import CPipeWire
import PulseBarCore

/// One capture stream on one stream node of the active player: its `target.object` is the
/// node's `object.serial`, so WirePlumber links the node's output to it alone (what
/// `pw-record --target <serial>` does). ``PipeWireConnection`` owns it, by the core's name for
/// it (``id``).
///
/// Two listeners: the state listener's `data` is this object, on the loop thread; it only
/// notes that the stream ended and has the loop look (``PipeWireConnection/streamsChanged()``),
/// which tells the core. The process listener's is ``process``, fixed while the stream is
/// connected, so that the data thread reaches nothing of this object.
final class PipeWirePlayerStream: PipeWireCallbackTarget {
  let id: RecordStreamID
  let stream: OpaquePointer
  /// The stream node it records, and that node's serial when the stream was made.
  let node: UInt32
  let serial: UInt32
  /// What its process callback reads on the data thread.
  let process: PipeWirePlayerProcess
  /// It is being closed: its state callbacks are the close's own, not a failure.
  private var closing = false
  /// It ended (failed, or its node went) and waits for the core to close it.
  private(set) var ended = false
  /// The core was told of its first quantum (``deliveryUntold()``).
  private var deliveryTold = false
  private let threadLoop: PipeWireThreadLoop
  private let debug: CaptureLog?

  private let listeners = PipeWireStreamListeners(
    stateChanged: { data, _, state, error in
      PipeWirePlayerStream.from(data).stateChanged(state, error: error.map { String(cString: $0) })
    }, process: { data in PipeWirePlayerProcess.from(data).process() })

  /// A capture stream `id` on `node` (whose serial is `serial`), connected and active at once
  /// (only a node that runs is recorded); the reason, when it cannot be made.
  static func open(
    _ id: RecordStreamID, node: UInt32, serial: UInt32, core: OpaquePointer, sampleRate: Int,
    process: (PipeWireStreamHandle) -> PipeWirePlayerProcess, threadLoop: PipeWireThreadLoop,
    debug: CaptureLog?
  ) -> Result<PipeWirePlayerStream, OpenFailure> {
    let properties = PipeWireCapture.streamProperties([
      ("target.object", String(serial)), ("node.dont-reconnect", "true"),
      ("node.name", "pulsebar-player"), ("node.description", "pulsebar capture (player)"),
    ])
    guard let stream = pw_stream_new(core, "pulsebar capture (player)", properties) else {
      return .failure(OpenFailure(reason: "cannot create a capture stream"))
    }
    let recording = PipeWirePlayerStream(
      id, stream: stream, node: node, serial: serial,
      process: process(PipeWireStreamHandle(stream: stream)), threadLoop: threadLoop,
      debug: debug)
    recording.listeners.add(
      to: stream, stateData: recording.userdata, processData: recording.process.userdata)
    let result = PipeWireCapture.connectCapture(
      stream, sampleRate: sampleRate, channels: recording.process.channels, active: true)
    guard result >= 0 else {
      recording.destroy()
      return .failure(
        OpenFailure(reason: "cannot connect a capture stream to node \(node) (error \(result))"))
    }
    return .success(recording)
  }

  /// Why a stream could not be made.
  struct OpenFailure: Error {
    let reason: String
  }

  private init(
    _ id: RecordStreamID, stream: OpaquePointer, node: UInt32, serial: UInt32,
    process: PipeWirePlayerProcess,
    threadLoop: PipeWireThreadLoop, debug: CaptureLog?
  ) {
    self.id = id
    self.stream = stream
    self.node = node
    self.serial = serial
    self.process = process
    self.threadLoop = threadLoop
    self.debug = debug
  }

  /// Disconnects and destroys the stream (its state callback ignores the close).
  func destroy() {
    threadLoop.assertLocked("PipeWirePlayerStream")
    closing = true
    listeners.destroy(stream)
  }

  /// Its first quantum arrived and the core was not told yet: true once (the hand-over).
  func deliveryUntold() -> Bool {
    guard !deliveryTold, process.delivered.load(ordering: .acquiring) else { return false }
    deliveryTold = true
    return true
  }

  /// The stream ended: WirePlumber destroys it when its node goes (`node.dont-reconnect`: it is
  /// never moved to another node), or it failed. Noted, and told to the core from the loop,
  /// not inside its own callback.
  private func stateChanged(_ state: pw_stream_state, error: String?) {
    threadLoop.assertLocked("PipeWirePlayerStream")
    guard !closing else { return }
    switch state {
    case PW_STREAM_STATE_ERROR, PW_STREAM_STATE_UNCONNECTED:
      debug?("PipeWire: the capture stream of node \(node) ended (\(error ?? "?"))")
      ended = true
      process.changed.armNow()
    case PW_STREAM_STATE_STREAMING:
      debug?("PipeWire: capture stream of node \(node) streaming")
    default: break
    }
  }
}

internal import CPipeWire
import PulseBarCore

/// The capture stream on the default sink's monitor, the output's record stream as the core
/// names it (``id``): made, made inactive or active, and closed as its actions say.
///
/// Two listeners: the state listener's `data` is this object, on the loop thread; it only
/// notes that the stream failed and has the loop look (``PipeWireConnection/streamsChanged()``),
/// outside this callback. The process listener's is the stream's ``PipeWireMonitorProcess``,
/// made at connection and fixed until the stream is destroyed, so that the data thread reaches
/// nothing of this object.
final class PipeWireMonitorStream: PipeWireCallbackTarget {
  private let threadLoop: PipeWireThreadLoop
  private let sampleRate: Int
  private let buffer: CaptureBuffer
  private let handOver: PipeWireHandOver
  private let debug: CaptureLog?
  /// The capture stream while there is one, the core's name for it, and what its process
  /// callback reads.
  private var stream: OpaquePointer?
  private(set) var id: RecordStreamID?
  private var process: PipeWireMonitorProcess?
  /// It failed and waits for the core to close it.
  private(set) var ended = false
  /// Has the loop look at the streams (given at ``open(_:on:channels:active:ended:)``).
  private var endedTimer: PipeWireLoopTimer?

  private let listeners = PipeWireStreamListeners(
    stateChanged: { data, _, state, error in
      PipeWireMonitorStream.from(data).streamStateChanged(
        state, error: error.map { String(cString: $0) })
    }, process: { data in PipeWireMonitorProcess.from(data).process() })

  init(
    threadLoop: PipeWireThreadLoop, sampleRate: Int, buffer: CaptureBuffer,
    handOver: PipeWireHandOver, debug: CaptureLog?
  ) {
    self.threadLoop = threadLoop
    self.sampleRate = sampleRate
    self.buffer = buffer
    self.handOver = handOver
    self.debug = debug
  }

  /// Makes the capture stream `id` on `core`: F32 interleaved at the engine's rate and
  /// `channels`, capturing the sink's output (`stream.capture.sink`) with no target, so
  /// WirePlumber links it to the default sink's monitor and moves it when the default changes;
  /// `active` or not. `ended` is armed when it fails. `nil` when made, else why it could not be.
  ///
  /// No `node.latency`: the stream takes whatever period the graph runs at and never lowers
  /// it (one buffer is one quantum; the engine cuts frames out of it).
  func open(
    _ id: RecordStreamID, on core: OpaquePointer, channels: Int, active: Bool,
    ended: PipeWireLoopTimer
  ) -> String? {
    threadLoop.assertLocked("PipeWireMonitorStream")
    close()
    let properties = PipeWireCapture.streamProperties([
      ("stream.capture.sink", "true"), ("node.name", "pulsebar"),
      ("node.description", "pulsebar capture"),
    ])
    guard let stream = pw_stream_new(core, "pulsebar capture", properties) else {
      return "cannot create the capture stream"
    }
    let process = PipeWireMonitorProcess(
      stream: PipeWireStreamHandle(stream: stream), channels: channels, buffer: buffer,
      handOver: handOver)
    self.stream = stream
    self.id = id
    self.process = process
    endedTimer = ended
    listeners.add(to: stream, stateData: userdata, processData: process.userdata)
    let result = PipeWireCapture.connectCapture(
      stream, sampleRate: sampleRate, channels: channels, active: active)
    guard result >= 0 else {
      close()
      return "cannot connect the capture stream (error \(result))"
    }
    return nil
  }

  /// Destroys the capture stream, if any; then what its process callback read.
  func close() {
    threadLoop.assertLocked("PipeWireMonitorStream")
    ended = false
    id = nil
    guard let stream else { return }
    // Its state callback hears `UNCONNECTED` on the way, which changes nothing.
    listeners.destroy(stream)
    self.stream = nil
    process = nil
  }

  /// The stream failed (its node went away, negotiation failed): noted for the core, which
  /// makes it again after a delay.
  private func streamStateChanged(_ state: pw_stream_state, error: String?) {
    threadLoop.assertLocked("PipeWireMonitorStream")
    switch state {
    case PW_STREAM_STATE_ERROR:
      debug?("PipeWire: capture stream failed (\(error ?? "?")); making it again")
      ended = true
      endedTimer?.armNow()
    case PW_STREAM_STATE_STREAMING:
      debug?("PipeWire: capture stream streaming")
    default: break
    }
  }

  /// Activates the stream (the core uncorked it) or deactivates it: an inactive stream keeps
  /// nothing running, so WirePlumber may suspend the sink.
  func setActive(_ active: Bool) {
    threadLoop.assertLocked("PipeWireMonitorStream")
    guard let stream else { return }
    pw_stream_set_active(stream, active)
  }
}

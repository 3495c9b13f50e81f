internal import CPipeWire
import PulseBarCore

/// The capture stream on the default sink's monitor, a part of ``PipeWireRecording``: made
/// once the core is there, made again after a failure or at a reload's channel count, active
/// only while its owner wants it (``PipeWirePlayerScope/Outcome/monitorActive``).
///
/// Two listeners: the state listener's `data` is this object, on the loop thread; the process
/// listener's is the stream's ``PipeWireMonitorProcess``, made at connection and fixed until the
/// stream is destroyed, so that the data thread reaches nothing of this object.
final class PipeWireMonitorStream: PipeWireCallbackTarget {
  private let threadLoop: PipeWireThreadLoop
  private let sampleRate: Int
  private let buffer: CaptureBuffer
  private let handOver: PipeWireHandOver
  private let log: CaptureLog
  private let debug: CaptureLog?
  /// Tells the owner that the stream failed and is gone: it is made again after a delay (set
  /// once, by the owner).
  var failed: () -> Void = {}
  /// The capture stream while connected, and what its process callback reads.
  private var stream: OpaquePointer?
  private var process: PipeWireMonitorProcess?
  /// The stream's activity as last set (`pw_stream_set_active`).
  private var streamActive = false

  private let listeners = PipeWireStreamListeners(
    stateChanged: { data, _, state, error in
      PipeWireMonitorStream.from(data).streamStateChanged(
        state, error: error.map { String(cString: $0) })
    }, process: { data in PipeWireMonitorProcess.from(data).process() })

  init(
    threadLoop: PipeWireThreadLoop, sampleRate: Int, buffer: CaptureBuffer,
    handOver: PipeWireHandOver, log: @escaping CaptureLog, debug: CaptureLog?
  ) {
    self.threadLoop = threadLoop
    self.sampleRate = sampleRate
    self.buffer = buffer
    self.handOver = handOver
    self.log = log
    self.debug = debug
  }

  /// The stream exists (made and not failed since).
  var isOpen: Bool { stream != nil }

  /// Makes the capture stream on `core`: F32 interleaved at the engine's rate and `channels`,
  /// capturing the sink's output (`stream.capture.sink`) with no target, so WirePlumber links
  /// it to the default sink's monitor and moves it when the default changes; `active` or not.
  /// False when it cannot (logged): the owner retries later.
  ///
  /// No `node.latency`: the stream takes whatever period the graph runs at and never lowers
  /// it (one buffer is one quantum; the engine cuts frames out of it).
  func open(on core: OpaquePointer, channels: Int, active: Bool) -> Bool {
    threadLoop.assertLocked("PipeWireMonitorStream")
    guard stream == nil else { return true }
    let properties = PipeWireCapture.streamProperties([
      ("stream.capture.sink", "true"), ("node.name", "pulsebar"),
      ("node.description", "pulsebar capture"),
    ])
    guard let stream = pw_stream_new(core, "pulsebar capture", properties) else {
      log("PipeWire: cannot create the capture stream")
      return false
    }
    let process = PipeWireMonitorProcess(
      stream: PipeWireStreamHandle(stream: stream), channels: channels, buffer: buffer,
      handOver: handOver)
    self.stream = stream
    self.process = process
    listeners.add(to: stream, stateData: userdata, processData: process.userdata)
    streamActive = active
    let result = PipeWireCapture.connectCapture(
      stream, sampleRate: sampleRate, channels: channels, active: active)
    guard result >= 0 else {
      log("PipeWire: cannot connect the capture stream (error \(result))")
      close()
      return false
    }
    return true
  }

  /// Destroys the capture stream, if any; then what its process callback read.
  func close() {
    threadLoop.assertLocked("PipeWireMonitorStream")
    guard let stream else { return }
    // Its state callback hears `UNCONNECTED` on the way, which changes nothing.
    listeners.destroy(stream)
    self.stream = nil
    process = nil
    streamActive = false
  }

  /// The stream failed (its node went away, negotiation failed): the owner makes it again
  /// after a delay.
  private func streamStateChanged(_ state: pw_stream_state, error: String?) {
    threadLoop.assertLocked("PipeWireMonitorStream")
    switch state {
    case PW_STREAM_STATE_ERROR:
      debug?("PipeWire: capture stream failed (\(error ?? "?")); making it again")
      close()
      failed()
    case PW_STREAM_STATE_STREAMING:
      debug?("PipeWire: capture stream streaming")
    default: break
    }
  }

  /// Activates the stream while something plays, deactivates it otherwise (`reason` says
  /// why, for `-v`): an inactive stream keeps nothing running, so WirePlumber may suspend the
  /// sink.
  func setActive(_ active: Bool, because reason: String) {
    threadLoop.assertLocked("PipeWireMonitorStream")
    guard let stream, active != streamActive else { return }
    streamActive = active
    debug?("PipeWire: capture stream \(active ? "active" : "inactive") (\(reason))")
    pw_stream_set_active(stream, active)
  }
}

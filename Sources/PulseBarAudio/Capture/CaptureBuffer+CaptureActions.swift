import PulseBarCore

/// The capture core's actions that both adapters (PulseAudio's and native PipeWire's) carry
/// out on the buffer alike.
extension CaptureBuffer {
  /// ``CaptureAction/startGeneration(markingSwitch:sourceName:)``: drops what was buffered,
  /// marks the switch if asked, and starts a new generation under `sourceName`.
  func startGeneration(markingSwitch: Bool, sourceName: String) {
    discardAll()
    if markingSwitch { markSourceSwitch() }
    updateStatus {
      $0.sourceName = sourceName
      $0.generation &+= 1
    }
  }

  /// ``CaptureAction/publish(_:)``: the status as the core decided it.
  func publish(_ status: CapturePublication) {
    updateStatus {
      $0.connected = status.connected
      $0.activity = status.activity
      $0.sourceName = status.sourceName
      $0.othersPlay = status.othersPlay
    }
  }
}

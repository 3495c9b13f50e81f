import PulseBarCore

/// What a reload, or a change of the engine's consumers, changed for the capture: told in one
/// call (``CaptureSource/reconfigure(_:)``), which the servers' adapters turn into one core
/// event (``CaptureEvent/reconfigured(scope:format:steadyFragment:)``). Each part is `nil` when
/// it did not change.
package struct CaptureChange: Sendable, Equatable {
  /// The buffer's new format (channels, fps), already applied to the buffer
  /// (``CaptureBuffer/reconfigure(_:)``): streams whose format is fixed are made again.
  package var format: CaptureFormat?
  /// Frames a second the engine analyses now (its fastest consumer's rate): a source whose
  /// chunks need not come more often may send larger ones.
  package var analysisRate: Int?
  /// `input.scope`, changed on a reload.
  package var scope: CaptureScope?

  package init(format: CaptureFormat? = nil, analysisRate: Int? = nil, scope: CaptureScope? = nil) {
    self.format = format
    self.analysisRate = analysisRate
    self.scope = scope
  }

  /// What a reload's `plan` changes for the capture: the format and the scope (the analysis
  /// rate follows from the consumers registered again).
  package init(_ plan: ReloadPlan) {
    let applied = plan.applied
    self.init(
      format: plan.captureFormatChanged
        ? CaptureFormat(channels: applied.channels.count, fps: applied.fps) : nil,
      scope: plan.scopeChange)
  }

  /// Nothing changed: the capture is not told.
  package var isEmpty: Bool { format == nil && analysisRate == nil && scope == nil }
}

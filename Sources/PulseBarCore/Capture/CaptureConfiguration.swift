import PulseBarSystem

/// What a capture core records and how it speaks (``CaptureCore``); fixed for the source's life.
package struct CaptureConfiguration: Sendable {
  /// A source name (`--input pulse:NAME`), or `nil` for the default sink's monitor.
  package var namedSource: String?
  package var scope: CaptureScope
  /// The rate the streams record at (what counts the onset fragment's half second).
  package var sampleRate: Int
  package var wording: CaptureWording
  /// A process's parent, for ``PlayerStreamSelection``: the adapter passes the system's process
  /// table (``ProcessTable/parent(of:root:)``), the tests their own; the core reads no `/proc`.
  package var parentOf: @Sendable (Int32) -> Int32?
  /// A record stream on a playback stream follows it to another sink (native PipeWire: it
  /// targets the node); else it is made again there (libpulse: a monitor stream on a sink
  /// input ends when the sink input moves).
  package var recordingFollowsMoves: Bool
  /// The player's record streams stay open, corked, while it pauses
  /// (``PlayerCapture/Opening/keepsPausedStreams``): libpulse; not native PipeWire, whose
  /// player streams are never corked.
  package var keepsPausedStreams: Bool

  package init(
    namedSource: String?, scope: CaptureScope, sampleRate: Int,
    wording: CaptureWording = .pulseAudio, recordingFollowsMoves: Bool = false,
    keepsPausedStreams: Bool = true, parentOf: @escaping @Sendable (Int32) -> Int32?
  ) {
    self.namedSource = namedSource
    self.scope = scope
    self.sampleRate = sampleRate
    self.wording = wording
    self.parentOf = parentOf
    self.recordingFollowsMoves = recordingFollowsMoves
    self.keepsPausedStreams = keepsPausedStreams
  }
}

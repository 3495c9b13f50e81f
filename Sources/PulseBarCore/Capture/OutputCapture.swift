/// The output's side of the capture core: what the output's record stream records
/// (``DefaultSinkFollower``), the stream itself (its id, whether it is ready, its fragment and
/// cork, ``RecordFragment``), and the format and rate of the source it records.
///
/// A part the core owns: it knows nothing of the player's streams or the connection, which the
/// core passes in where a decision needs them.
package struct OutputCapture: Sendable, Equatable {
  /// The output's record stream while it exists.
  package struct Stream: Sendable, Equatable {
    package var id: RecordStreamID
    package var ready = false
    package var fragment: RecordFragment
  }

  /// What the stream records and the sink that drives the activity.
  package var follower: DefaultSinkFollower
  /// The record stream, while there is one.
  package private(set) var stream: Stream?
  /// The recorded source's format is s16 (the player's streams record the same).
  package private(set) var int16 = false
  /// The recorded source's own rate (on PipeWire, the graph's).
  package var sourceRate: UInt32 = 0

  package init(followsDefault: Bool) {
    follower = DefaultSinkFollower(followsDefault: followsDefault)
  }

  /// What plays into the monitored sink among `streams`; a source that is no monitor runs
  /// while recorded; nothing without a connection.
  package func activity(connected: Bool, streams: ServerStreamTable) -> StreamActivity {
    guard connected else { return .none }
    if let sink = follower.monitoredSink { return streams.activity(onSink: sink) }
    return stream == nil ? .none : .running
  }

  /// A new stream `id` on `source` at `int16`, corked unless something plays into the
  /// monitored sink (a source that is no monitor runs): the request to open it. On PipeWire its
  /// fragment is one quantum of the graph at `rate`. The caller has released the one before.
  package mutating func opened(
    _ id: RecordStreamID, source: String, int16: Bool, rate: UInt32, onPipeWire: Bool,
    sampleRate: Int, connected: Bool, streams: ServerStreamTable
  ) -> RecordRequest {
    self.int16 = int16
    stream = Stream(
      id: id, fragment: RecordFragment(adapts: false, steadyAfterFrames: 0, corked: false))
    let corked = activity(connected: connected, streams: streams) != .running
    let fragment = RecordFragment(sampleRate: sampleRate, onPipeWire: onPipeWire, corked: corked)
    stream?.fragment = fragment
    return RecordRequest(
      id: id, recording: .source(source), int16: int16,
      fragment: onPipeWire ? .quantum(graphRate: rate) : .onset, corked: corked,
      pinned: !follower.followsDefault)
  }

  /// Forgets the stream, leaving what it recorded to the follower: the id to close, if any.
  package mutating func release() -> RecordStreamID? {
    defer { stream = nil }
    return stream?.id
  }

  /// Forgets the stream and what it recorded: the id to close, if any.
  package mutating func close() -> RecordStreamID? {
    follower.streamClosed()
    return release()
  }

  /// Stream `id` is ready: false when it is not the output's.
  package mutating func ready(_ id: RecordStreamID) -> Bool {
    guard stream?.id == id else { return false }
    stream?.ready = true
    return true
  }

  /// Whether the output's sound should run now: the cork change to ask of a ready stream.
  package mutating func corkChange(running: Bool) -> RecordFragment.CorkChange? {
    guard let ready = stream?.ready else { return nil }
    return stream?.fragment.activityChanged(running: running, streamReady: ready)
  }

  /// `frames` arrived on stream `id`: asks for the steady fragment when it is time. False when
  /// `id` is not the output's.
  package mutating func recorded(
    _ id: RecordStreamID, frames: Int, actions: inout [CaptureAction]
  ) -> Bool {
    guard let ready = stream?.id == id ? stream?.ready : nil else { return false }
    if stream?.fragment.recorded(frames: frames, streamReady: ready) == true {
      actions.append(.setFragment(id, .steady))
    }
    return true
  }
}

// MARK: - Lookups

extension OutputCapture {
  /// What the core does next for the output after a lookup or a move.
  package enum Next: Sendable, Equatable {
    case nothing
    /// Publish the activity again (and cork or uncork).
    case updateActivity
    /// Make a stream on this source (replacing the current one).
    case open(source: String, int16: Bool, rate: UInt32)
    /// Close the stream, then publish the activity again.
    case close
    /// No sink at all: close the stream, say nothing is recorded, publish the activity again.
    case nothingToRecord
  }

  /// A lookup's answer (a server, sink or source described, a source missing): what next.
  package mutating func described(
    _ event: CaptureEvent, namedSource: String?, at now: Double, wording: CaptureWording,
    actions: inout [CaptureAction]
  ) -> Next {
    switch event {
    case .serverDescribed(_, let defaultSink):
      if let namedSource {
        actions.append(.describeSource(namedSource))
        return .nothing
      }
      return serverDescribed(defaultSink: defaultSink, actions: &actions)
    case .sinkDescribed(let sink):
      return lookedUp(
        sink.monitorSource, monitoring: sink.index, int16: sink.int16, rate: sink.rate, at: now,
        wording: wording, actions: &actions)
    case .sourceDescribed(let source):
      return sourceDescribed(source, at: now, wording: wording, actions: &actions)
    case .sourceMissing(let name): return sourceMissing(name, wording: wording, actions: &actions)
    default: return .nothing
    }
  }

  /// Where the server's info points, following the default: its sink (`nil`: none).
  private mutating func serverDescribed(defaultSink: String?, actions: inout [CaptureAction])
    -> Next
  {
    guard let defaultSink else {
      // No sink at all: nothing to record until one appears (a device event).
      follower.nothingToRecord()
      return .nothingToRecord
    }
    actions.append(.describeSink(defaultSink))
    return .nothing
  }

  /// A lookup found `source` (the default sink's monitor, or the named source) monitoring
  /// `sink`: record it, keep the stream, or leave the server's move (``DefaultSinkFollower``).
  package mutating func lookedUp(
    _ source: String, monitoring sink: UInt32?, int16: Bool, rate: UInt32, at now: Double,
    wording: CaptureWording, actions: inout [CaptureAction]
  ) -> Next {
    switch follower.lookedUp(source, monitoring: sink, at: now) {
    case .keepMove(let lookAgainAt):
      guard let lookAgainAt else { return .nothing }
      actions.append(
        .debug(
          "\(wording.server): the server still names the sink of \(source) its default; looking again in 2 s"
        ))
      actions.append(.armTimer(at: lookAgainAt))
      return .nothing
    case .keep(let sinkChanged):
      // A new sink under a stream the server already moved there.
      if sinkChanged { actions.append(Self.recording(source, sink, wording)) }
      sourceRate = rate
      return .updateActivity
    case .record:
      actions.append(Self.recording(source, sink, wording))
      sourceRate = rate
      return .open(source: source, int16: int16, rate: rate)
    }
  }

  /// A source's info: the named source to record, or (following the default) the source the
  /// server moved the stream to, whose sink drives the activity from now on.
  private mutating func sourceDescribed(
    _ source: SourceDescription, at now: Double, wording: CaptureWording,
    actions: inout [CaptureAction]
  ) -> Next {
    guard follower.followsDefault else {
      return lookedUp(
        source.name, monitoring: source.monitorOfSink, int16: source.int16, rate: source.rate,
        at: now, wording: wording, actions: &actions)
    }
    switch follower.learned(sink: source.monitorOfSink, of: source.name) {
    case .ignored: return .nothing
    case .unchanged: break
    case .changed: actions.append(Self.recording(source.name, source.monitorOfSink, wording))
    }
    return .updateActivity
  }

  /// The named source does not exist (yet): wait for a device event, said once.
  private mutating func sourceMissing(
    _ name: String, wording: CaptureWording, actions: inout [CaptureAction]
  ) -> Next {
    guard !follower.followsDefault else { return .nothing }
    if follower.namedSourceMissing() {
      actions.append(.log("\(wording.server): no source named \(name); waiting for it"))
    }
    return .close
  }

  /// The server moved the stream to `source`: where it is now is described, and the default
  /// is looked up once the server has settled (``DefaultSinkFollower``; a default switch also
  /// sends a device event, which looks at once). True when the stream records anew.
  package mutating func moved(
    to source: String?, at now: Double, wording: CaptureWording, actions: inout [CaptureAction]
  ) -> Bool {
    let lookUpAt = follower.streamMoved(to: source, at: now)
    defer { actions.append(.armTimer(at: lookUpAt)) }
    guard let source else { return false }
    actions.append(.debug("\(wording.server): the server moved the record stream to \(source)"))
    // Which sink the new monitor belongs to, so a player there uncorks the stream before the
    // default is looked up.
    actions.append(.describeSource(source))
    return true
  }

  /// Corks the stream while the output's sound does not run, uncorks it when it does; corked,
  /// it takes the onset fragment back, so the next music shows at once. `playerRecorded`: it
  /// is corked because the player's streams are recorded instead (the `-v` line says so).
  package mutating func cork(
    running: Bool, playerRecorded: Bool = false, wording: CaptureWording,
    actions: inout [CaptureAction]
  ) {
    guard let id = stream?.id, let change = corkChange(running: running) else { return }
    let corked = change != .uncork
    let why =
      !corked
      ? "a stream plays" : playerRecorded ? "the player's streams are recorded" : "no stream plays"
    actions.append(
      .debug("\(wording.server): \(corked ? wording.corked : wording.uncorked) (\(why))"))
    if change == .cork(onset: true) { actions.append(.setFragment(id, .onset)) }
    actions.append(.cork(id, corked))
  }

  /// The `-v` line that says what the stream records.
  static func recording(_ source: String, _ sink: UInt32?, _ wording: CaptureWording)
    -> CaptureAction
  {
    .debug(
      "\(wording.server): recording \(source)"
        + (sink.map { " (the monitor of sink #\($0))" } ?? ""))
  }
}

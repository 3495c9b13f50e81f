/// The player's side of the capture core: what the bars record under `input.scope`
/// (``PlayerCapturePlan``) and one record stream per recorded playback stream of the active
/// player, summed in the mixer's lanes. Written once for both servers.
///
/// A part the core owns: it knows nothing of the output's stream or the connection; the core
/// passes in the server's streams, the plan and how to open a stream. The output's fragments
/// stop once one of the player's streams first delivers (``recordsPlayer``).
package struct PlayerCapture: Sendable, Equatable {
  /// One record stream on one playback stream of the active player.
  package struct Stream: Sendable, Equatable {
    package var id: RecordStreamID
    /// The playback stream it records, and the sink that stream played into when it was made.
    package var serverStream: UInt32
    package var sink: UInt32?
    package var ready = false
    /// It has delivered audio (``PlayerCapture/recordsPlayer``) since it was opened or uncorked.
    package var delivered = false
    /// Kept open, corked, while the player does not play (``Opening/keepsPausedStreams``).
    package var parked = false
    package var fragment: RecordFragment
  }

  /// How a new stream is made: its fragment, format and first size, and whether it follows
  /// its playback stream to another sink (``CaptureConfiguration/recordingFollowsMoves``).
  package struct Opening: Sendable {
    package var fragment: RecordFragment
    package var size: FragmentSize
    package var int16: Bool
    package var followsMoves = false
    /// While the player pauses, a ready stream on a playback stream the player still owns
    /// stays open, corked: playing again is an uncork, its first fragment the hand-over, with
    /// no new stream for the server to make and link (libpulse; native PipeWire's player
    /// streams have no cork).
    package var keepsPausedStreams = false
  }

  /// What the bars record: the active player's streams or the whole output.
  package private(set) var selection: PlayerStreamSelection
  /// The active MPRIS player, as the engine last said.
  package private(set) var player: PlayerAudioIdentity?
  /// What is recorded now, and why.
  package private(set) var target: CaptureTarget
  /// The record streams on the player's playback streams, in lane order.
  package private(set) var streams: [Stream] = []
  /// Playback streams the server would not record alone; tried again once they change.
  package var failed: Set<UInt32> = []

  package init(scope: CaptureScope, namedSource: Bool) {
    selection = PlayerStreamSelection(scope: scope)
    target = namedSource || scope == .output ? .output(.scopeIsOutput) : .output(.noPlayer)
  }

  /// The player's streams are recorded: one of them has delivered audio, so the output's own
  /// fragments are dropped from then on. Until the first arrives (a stream slow to start, or
  /// one the server never feeds) the output goes on showing, so a switch leaves no silence.
  package var recordsPlayer: Bool {
    if case .player = target { return streams.contains { $0.delivered } }
    return false
  }

  /// What to record now: the player's streams among `serverStreams` (`nil` while they are not
  /// known: no connection, or a named source, which records what it names), and whether
  /// others' sound plays on `monitoredSink`.
  package func plan(
    serverStreams: ServerStreamTable, known: Bool, namedSource: Bool, monitoredSink: UInt32?,
    parentOf: (Int32) -> Int32?
  ) -> PlayerCapturePlan {
    let candidates = known && !namedSource ? serverStreams.playbackStreams() : nil
    return PlayerCapturePlan(
      selection: namedSource ? PlayerStreamSelection(scope: .output) : selection, player: player,
      streams: candidates?.filter { !failed.contains($0.id) },
      onOutput: monitoredSink.map { serverStreams.playbackStreams(onSink: $0) },
      parentOf: parentOf)
  }

  /// The active player changed, or started or stopped playing: true when it did.
  package mutating func follow(_ identity: PlayerAudioIdentity?) -> Bool {
    defer { player = identity }
    return identity != player
  }

  /// `input.scope` changed on a reload: true when it did.
  package mutating func scopeChanged(_ scope: CaptureScope) -> Bool {
    defer { selection.scope = scope }
    return scope != selection.scope
  }

  /// The streams on the steady fragment.
  package var steadyStreams: [RecordStreamID] { streams.filter(\.fragment.isSteady).map(\.id) }

  /// The index of stream `id`, if it is one of the player's.
  package func index(of id: RecordStreamID) -> Int? { streams.firstIndex { $0.id == id } }

  /// Opens and closes streams to match `plan` (a stream whose playback stream moved to another
  /// sink is made again, unless it follows moves); `nextID` names each new one. Returns the target it had when it
  /// changed, and appends the actions.
  package mutating func apply(
    _ plan: PlayerCapturePlan, serverStreams: ServerStreamTable, opening: Opening,
    nextID: inout UInt64, wording: CaptureWording, actions: inout [CaptureAction]
  ) -> CaptureTarget? {
    var opened: [Stream] = []
    let changed = plan.apply(
      to: streams, stream: \.serverStream,
      stale: { !opening.followsMoves && serverStreams.sink(of: $0.serverStream) != $0.sink },
      parkable: { opening.keepsPausedStreams && $0.ready },
      close: { closed in
        actions.append(.close(closed.id))
        streams.removeAll { $0.id == closed.id }
      },
      open: { serverStream in
        guard let sink = serverStreams.sink(of: serverStream) else { return false }
        nextID += 1
        let id = RecordStreamID(nextID)
        actions.append(
          .open(
            RecordRequest(
              id: id, recording: .serverStream(serverStream), int16: opening.int16,
              fragment: opening.size)))
        actions.append(
          .debug("\(wording.server): recording \(wording.stream) \(serverStream) on sink #\(sink)"))
        opened.append(
          Stream(id: id, serverStream: serverStream, sink: sink, fragment: opening.fragment))
        return true
      })
    streams += opened
    let parkedChanged = park(recorded: plan.recorded, actions: &actions)
    if changed || parkedChanged { actions.append(.mix(streams.map(\.id))) }
    guard plan.target != target else { return nil }
    defer { target = plan.target }
    return target
  }

  /// Corks the streams kept open that are not recorded now, and uncorks those recorded again
  /// (the hand-over then waits for a fragment after the uncork). True when any changed.
  private mutating func park(recorded: [UInt32], actions: inout [CaptureAction]) -> Bool {
    var changed = false
    for index in streams.indices {
      let park = !recorded.contains(streams[index].serverStream)
      guard park != streams[index].parked else { continue }
      let id = streams[index].id
      (streams[index].parked, streams[index].delivered, changed) = (park, false, true)
      switch streams[index].fragment.activityChanged(running: !park, streamReady: true) {
      case .uncork: actions.append(.cork(id, false))
      case .cork(let onset):
        actions.append(.cork(id, true))
        if onset { actions.append(.setFragment(id, .onset)) }
      case nil: break
      }
    }
    return changed
  }

  /// Closes stream `id` (it ended, or could not be made) with the `-v` line `why` says; its
  /// playback stream is left alone until it changes when it is still there on the same sink
  /// (else it moved, and is followed there). False when `id` is none of the player's.
  package mutating func drop(
    _ id: RecordStreamID, serverStreams: ServerStreamTable, wording: CaptureWording,
    actions: inout [CaptureAction], why: (UInt32) -> String
  ) -> Bool {
    guard let index = index(of: id) else { return false }
    let gone = streams.remove(at: index)
    actions.append(.debug("\(wording.server): \(why(gone.serverStream))"))
    actions.append(.close(id))
    if serverStreams.sink(of: gone.serverStream) == gone.sink { failed.insert(gone.serverStream) }
    return true
  }

  /// Closes every stream (the connection is lost, or the source stops).
  package mutating func closeAll(actions: inout [CaptureAction]) {
    for stream in streams { actions.append(.close(stream.id)) }
    streams.removeAll()
    if case .player = target { target = .output(.noPlayer) }
  }

  /// Stream `id` is ready: false when it is none of the player's.
  package mutating func ready(_ id: RecordStreamID) -> Bool {
    guard let index = index(of: id) else { return false }
    streams[index].ready = true
    return true
  }

  /// Stream `id` delivered `frames`: asks for the steady fragment when it is time. True when
  /// this was its first audio: the hand-over, after which the output's fragments stop.
  package mutating func recorded(
    _ id: RecordStreamID, frames: Int, wording: CaptureWording, actions: inout [CaptureAction]
  ) -> Bool {
    guard let index = index(of: id), !streams[index].parked else { return false }
    if streams[index].fragment.recorded(frames: frames, streamReady: streams[index].ready) {
      actions.append(.setFragment(id, .steady))
    }
    return delivered(id, wording: wording, actions: &actions)
  }

  /// Stream `id` delivered audio. True when it was its first: the hand-over, after which the
  /// output's fragments stop (said at `-v`).
  package mutating func delivered(
    _ id: RecordStreamID, wording: CaptureWording, actions: inout [CaptureAction]
  ) -> Bool {
    guard let index = index(of: id), !streams[index].parked, !streams[index].delivered else {
      return false
    }
    streams[index].delivered = true
    let what = streams[index].serverStream
    actions.append(
      .debug("\(wording.server): \(wording.stream) \(what) delivers; the output's audio stops"))
    return true
  }
}

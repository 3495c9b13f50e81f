internal import CPipeWire
import PulseBarCore

/// The record streams the core names (``RecordStreamID``): the monitor stream for the output,
/// one stream on a node for each of the player's, opened and closed as its actions say; what
/// their callbacks noted is told to the core from ``streamsChanged()``, on the loop, outside
/// the streams' own callbacks.
extension PipeWireConnection {
  /// Makes and connects the stream `request` names: the monitor stream for a source (it
  /// records the default sink's monitor, where WirePlumber links it), a stream on the node's
  /// `object.serial` for a playback stream. It is ready at once (inactive while corked); one
  /// that cannot be made is refused.
  func open(_ request: RecordRequest) {
    guard let core = server.core, let streamTimer else {
      return send(.recordStreamRefused(request.id, reason: "no server"))
    }
    switch request.recording {
    case .source:
      if let refused = monitor.open(
        request.id, on: core, channels: channels, active: !request.corked, ended: streamTimer)
      {
        return send(.recordStreamRefused(request.id, reason: refused))
      }
    case .serverStream(let node):
      guard let serial = watch.graph.stream(node)?.serial else {
        return send(.recordStreamRefused(request.id, reason: "node \(node) has no serial"))
      }
      let opened = PipeWirePlayerStream.open(
        request.id, node: node, serial: serial, core: core, sampleRate: sampleRate,
        process: { stream in
          PipeWirePlayerProcess(
            stream: stream, key: request.id.rawValue, channels: channels, buffer: buffer,
            handOver: handOver, changed: streamTimer)
        }, threadLoop: threadLoop, debug: debug)
      switch opened {
      case .success(let stream): players.append(stream)
      case .failure(let failure):
        return send(.recordStreamRefused(request.id, reason: failure.reason))
      }
    }
    send(.recordStreamReady(request.id))
  }

  /// Disconnects and frees stream `id`; it never calls back again.
  func close(_ id: RecordStreamID) {
    if monitor.id == id { return monitor.close() }
    guard let index = players.firstIndex(where: { $0.id == id }) else { return }
    players.remove(at: index).destroy()
  }

  /// The streams' callbacks noted something (``streamTimer``): the server hung up, a stream
  /// ended, or one of the player's delivered its first quantum (the hand-over).
  func streamsChanged() {
    threadLoop.assertLocked("PipeWireConnection")
    if server.hungUp {
      server.hungUp = false
      send(.serverLost(reason: "the server hung up"))
    }
    var events: [CaptureEvent] = []
    if monitor.ended, let id = monitor.id { events.append(.recordStreamEnded(id)) }
    for stream in players {
      if stream.ended {
        events.append(.recordStreamEnded(stream.id))
      } else if stream.deliveryUntold() {
        events.append(.delivered(stream.id))
      }
    }
    for event in events { send(event) }
  }
}

import PulseBarCore

/// What the capture core was told of the PipeWire graph, and the events that tell it what
/// changed since: a stream node is a ``ServerStream`` (its sink comes with its link, its
/// process with its info or its client), updated or removed as the registry says, in whatever
/// order nodes, links, clients and states arrive; a new default sink, or the default sink's
/// node coming or going, is ``CaptureEvent/devicesChanged`` (the core then asks again).
struct PipeWireGraphEvents {
  /// The stream nodes as last told, by id.
  private var streams: [UInt32: ServerStream] = [:]
  /// The default sink as last told (``defaultSink(in:)``).
  private var toldDefault: String?

  /// The events that bring the core from what it was told to `graph`: the streams first, then
  /// the default, so the core looks up the new default knowing what plays into it.
  mutating func events(for graph: PipeWireGraph) -> [CaptureEvent] {
    var events: [CaptureEvent] = []
    let now = graph.serverStreams()
    for id in streams.keys.sorted() where now[id] == nil {
      streams[id] = nil
      events.append(.streamRemoved(id))
    }
    for (id, stream) in now.sorted(by: { $0.key < $1.key }) where streams[id] != stream {
      streams[id] = stream
      events.append(.streamUpdated(stream))
    }
    let sink = defaultSink(in: graph)
    if sink != toldDefault {
      toldDefault = sink
      events.append(.devicesChanged)
    }
    return events
  }

  /// The answer to a lookup the core asked for (``CaptureAction/describeServer``, a sink, a
  /// source), from the graph: the server's default, the sink's node and its monitor; no source
  /// is named on PipeWire. `nil` for a sink not (yet) there: its node's coming is a device
  /// change, and the core asks again.
  func answer(_ lookup: CaptureAction, in graph: PipeWireGraph, rate: Int) -> CaptureEvent? {
    switch lookup {
    case .describeServer:
      return .serverDescribed(onPipeWire: true, defaultSink: defaultSink(in: graph))
    case .describeSink(let name):
      return graph.sink(named: name).map {
        .sinkDescribed(
          SinkDescription(
            index: $0, monitorSource: name + ".monitor", int16: false, rate: UInt32(rate)))
      }
    case .describeSource(let name): return .sourceMissing(name)
    default: return nil
    }
  }

  /// The default sink's `node.name` while that sink's node is there, else `nil`.
  func defaultSink(in graph: PipeWireGraph) -> String? {
    graph.followedSink == nil ? nil : graph.defaultSinkName
  }
}

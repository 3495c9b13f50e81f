import PulseBarCore

/// What the PipeWire registry told about the audio graph, reduced to what decides the activity:
/// the sinks by name, the playback stream nodes and whether each runs, the links between nodes,
/// and the default sink WirePlumber chose.
///
/// The activity of the followed sink comes from the graph itself, not from a protocol's view of
/// it: a playback stream (`Stream/Output/Audio`, native or through pipewire-pulse) plays into
/// the sink when a link goes from its node to the sink's node, and it plays rather than pauses
/// when its node state is `running` (a corked pipewire-pulse stream, a paused native one, is
/// inactive: `idle` or `suspended`). Links are the reliable part: `node.target` is only a wish,
/// while WirePlumber's links say where a stream actually goes, moves included.
package struct PipeWireGraph: Sendable, Equatable {
  /// `Audio/Sink` nodes: id to `node.name`.
  private var sinks: [UInt32: String] = [:]
  /// `Stream/Output/Audio` nodes: id to whether the node state is `running`.
  private var streams: [UInt32: Bool] = [:]
  /// A link from one node's output port to another's input port.
  private struct Link: Sendable, Equatable {
    var output: UInt32
    var input: UInt32
  }

  /// Links by id.
  private var links: [UInt32: Link] = [:]
  /// `default.audio.sink` from the `default` metadata: the sink WirePlumber links to.
  package var defaultSinkName: String?

  package init() {}

  /// A new sink node.
  package mutating func addSink(id: UInt32, name: String) { sinks[id] = name }

  /// A new playback stream node, or a new state of one (`running` or not).
  package mutating func updateStream(id: UInt32, running: Bool) { streams[id] = running }

  /// Whether `id` is a known playback stream node.
  package func isStream(_ id: UInt32) -> Bool { streams[id] != nil }

  /// A new link from node `output` to node `input`.
  package mutating func addLink(id: UInt32, output: UInt32, input: UInt32) {
    links[id] = Link(output: output, input: input)
  }

  /// Forgets a global that went away (whatever it was).
  package mutating func remove(id: UInt32) {
    sinks[id] = nil
    streams[id] = nil
    links[id] = nil
  }

  /// Forgets everything (the connection was lost).
  package mutating func removeAll() { self = PipeWireGraph() }

  /// The node id of the default sink, if the registry has announced it.
  package var followedSink: UInt32? {
    guard let defaultSinkName else { return nil }
    return sinks.first { $0.value == defaultSinkName }?.key
  }

  /// What plays into `sink`: `.running` if a linked stream node runs, `.corked` if streams are
  /// linked to it but none runs, `.none` otherwise.
  package func activity(onSink sink: UInt32) -> StreamActivity {
    var result = StreamActivity.none
    for link in links.values where link.input == sink {
      guard let running = streams[link.output] else { continue }
      if running { return .running }
      result = .corked
    }
    return result
  }
}

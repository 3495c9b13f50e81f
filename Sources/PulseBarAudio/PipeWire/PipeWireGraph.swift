import PulseBarCore

/// What the PipeWire registry told about the audio graph, reduced to what the capture core
/// needs (``serverStreams()``, ``followedSink``): the sinks by name, the playback stream nodes
/// (whether each runs, and the application it belongs to), the clients' processes, the links
/// between nodes, and the default sink WirePlumber chose.
///
/// Where a stream plays comes from the graph itself, not from a protocol's view of it: a
/// playback stream (`Stream/Output/Audio`, native or through pipewire-pulse) plays into the
/// sink a link goes to from its node, and it plays rather than pauses when its node state is
/// `running` (a corked pipewire-pulse stream, a paused native one, is inactive: `idle` or
/// `suspended`). Links are the reliable part: `node.target` is only a wish, while WirePlumber's
/// links say where a stream actually goes, moves included.
///
/// Which application a stream node belongs to (for ``PlayerStreamSelection``): a pipewire-pulse stream's node carries the libpulse client's
/// `application.process.id`, `.process.binary` and `application.name` in its info; a native
/// stream's node (pw-play, mpv's `--ao=pipewire`) only `application.name`, and its process is
/// that of its client (`client.id`), whose `pipewire.sec.pid` the server took from the socket.
package struct PipeWireGraph: Sendable, Equatable {
  /// A `Stream/Output/Audio` node.
  package struct StreamNode: Sendable, Equatable {
    /// The node state is `running`.
    package var running = false
    /// `object.serial`: what a capture stream's `target.object` names (an id may be reused).
    package var serial: UInt32?
    /// `client.id`: the client that made the node.
    package var client: UInt32?
    /// `application.process.id`, `.process.binary` and `application.name` of the node's
    /// properties.
    package var processID: Int32?
    package var binary: String?
    package var applicationName: String?

    package init(
      running: Bool = false, serial: UInt32? = nil, client: UInt32? = nil,
      processID: Int32? = nil, binary: String? = nil, applicationName: String? = nil
    ) {
      self.running = running
      self.serial = serial
      self.client = client
      self.processID = processID
      self.binary = binary
      self.applicationName = applicationName
    }
  }

  /// `Audio/Sink` nodes: id to `node.name`.
  private var sinks: [UInt32: String] = [:]
  /// `Stream/Output/Audio` nodes by id.
  private var streams: [UInt32: StreamNode] = [:]
  /// Clients by id: the process at the other end of the client's socket (`pipewire.sec.pid`).
  /// pipewire-pulse's clients name pipewire-pulse itself, which the node's own
  /// `application.process.id` overrides.
  private var clients: [UInt32: Int32] = [:]
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

  /// A new playback stream node, from its registry global: not running until its info says.
  package mutating func addStream(
    id: UInt32, serial: UInt32?, client: UInt32?, applicationName: String?
  ) {
    streams[id] = StreamNode(serial: serial, client: client, applicationName: applicationName)
  }

  /// A new state of a playback stream node (`running` or not).
  package mutating func updateStream(id: UInt32, running: Bool) {
    streams[id]?.running = running
  }

  /// A playback stream node's application, from its info's properties (a missing key keeps
  /// what the global said).
  package mutating func updateStream(
    id: UInt32, processID: Int32?, binary: String?, applicationName: String?
  ) {
    guard var node = streams[id] else { return }
    node.processID = processID
    node.binary = binary
    node.applicationName = applicationName ?? node.applicationName
    streams[id] = node
  }

  /// A playback stream node, if `id` is one.
  package func stream(_ id: UInt32) -> StreamNode? { streams[id] }

  /// A new client, with the process at the other end of its socket.
  package mutating func addClient(id: UInt32, processID: Int32?) { clients[id] = processID }

  /// A new link from node `output` to node `input`.
  package mutating func addLink(id: UInt32, output: UInt32, input: UInt32) {
    links[id] = Link(output: output, input: input)
  }

  /// Forgets a global that went away (whatever it was).
  package mutating func remove(id: UInt32) {
    sinks[id] = nil
    streams[id] = nil
    clients[id] = nil
    links[id] = nil
  }

  /// Forgets everything (the connection was lost).
  package mutating func removeAll() { self = PipeWireGraph() }

  /// The node id of the default sink, if the registry has announced it.
  package var followedSink: UInt32? { defaultSinkName.flatMap { sink(named: $0) } }

  /// The node id of the sink named `name`, if there is one.
  package func sink(named name: String) -> UInt32? {
    sinks.first { $0.value == name }?.key
  }

  /// The playback stream nodes as the capture core sees them (``ServerStream``), by id: the
  /// sink is the one a link goes to from the node (none before its link), the process the
  /// node's `application.process.id`, else its client's.
  package func serverStreams() -> [UInt32: ServerStream] {
    var sinkOf: [UInt32: UInt32] = [:]
    for link in links.values where sinks[link.input] != nil {
      sinkOf[link.output] = min(sinkOf[link.output] ?? link.input, link.input)
    }
    var result: [UInt32: ServerStream] = [:]
    for (id, node) in streams {
      result[id] = ServerStream(
        id: id, sink: sinkOf[id], running: node.running,
        processID: node.processID ?? node.client.flatMap { clients[$0] }, binary: node.binary,
        applicationName: node.applicationName)
    }
    return result
  }
}

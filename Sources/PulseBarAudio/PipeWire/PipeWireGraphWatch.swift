internal import CPipeWire
import PulseBarCore

/// The graph as the registry tells it, a part of ``PipeWireConnection``: sinks, clients, links
/// and playback stream nodes go into ``PipeWireGraph``; each playback stream node is bound for
/// its state and owner, the `default` metadata for the default sink. Every change is told to
/// its owner (``changed``), which tells the capture core what differs
/// (``PipeWireGraphEvents``). No policy: what a change means is the core's.
/// The registry's, the nodes' and the metadata's callbacks find it through their `data`, on the
/// loop thread with the loop's lock held (asserted in debug).
final class PipeWireGraphWatch: PipeWireCallbackTarget {
  /// A bound proxy (a stream node for its state, the default metadata) and its listener.
  struct Bound {
    let proxy: OpaquePointer
    let hook: UnsafeMutablePointer<spa_hook>
  }

  private let threadLoop: PipeWireThreadLoop
  /// Tells the owner the graph changed (set once, by the owner).
  var changed: () -> Void = {}
  private(set) var graph = PipeWireGraph()
  private var registry: OpaquePointer?
  /// Stream nodes bound for their state, by global id.
  private var boundNodes: [UInt32: Bound] = [:]
  /// The `default` metadata, bound for `default.audio.sink`, and its global id.
  private var metadata: Bound?
  private var metadataId: UInt32?

  // Listener storage: libpipewire keeps pointers to these, so they live as long as we do.
  private let registryHook = UnsafeMutablePointer.allocate(initializedTo: spa_hook())
  private let registryEvents = UnsafeMutablePointer.allocate(initializedTo: pw_registry_events())
  private let nodeEvents = UnsafeMutablePointer.allocate(initializedTo: pw_node_events())
  private let metadataEvents = UnsafeMutablePointer.allocate(initializedTo: pw_metadata_events())

  /// Fills the registry's, the nodes' and the metadata's event tables.
  init(threadLoop: PipeWireThreadLoop) {
    self.threadLoop = threadLoop
    registryEvents.pointee.version = UInt32(PW_VERSION_REGISTRY_EVENTS)
    registryEvents.pointee.global = { data, id, _, type, _, props in
      guard let type else { return }
      PipeWireGraphWatch.from(data).global(id: id, type: String(cString: type), props: props)
    }
    registryEvents.pointee.global_remove = { data, id in
      PipeWireGraphWatch.from(data).globalRemoved(id: id)
    }
    nodeEvents.pointee.version = UInt32(PW_VERSION_NODE_EVENTS)
    nodeEvents.pointee.info = { data, info in
      guard let info else { return }
      let propertiesChanged = info.pointee.change_mask & UInt64(PW_NODE_CHANGE_MASK_PROPS) != 0
      PipeWireGraphWatch.from(data).nodeInfo(
        id: info.pointee.id, running: info.pointee.state == PW_NODE_STATE_RUNNING,
        props: propertiesChanged ? info.pointee.props : nil)
    }
    metadataEvents.pointee.version = UInt32(PW_VERSION_METADATA_EVENTS)
    metadataEvents.pointee.property = { data, subject, key, _, value in
      PipeWireGraphWatch.from(data).metadataProperty(
        subject: subject, key: key.map { String(cString: $0) }, value: value)
      return 0
    }
  }

  deinit {
    registryHook.deallocate()
    registryEvents.deallocate()
    nodeEvents.deallocate()
    metadataEvents.deallocate()
  }

  /// Listens to `core`'s registry; false when it has none.
  func watchRegistry(of core: OpaquePointer) -> Bool {
    threadLoop.assertLocked("PipeWireGraphWatch")
    guard let registry = pw_core_get_registry(core, UInt32(PW_VERSION_REGISTRY), 0) else {
      return false
    }
    self.registry = registry
    pb_pw_registry_add_listener(registry, registryHook, registryEvents, userdata)
    return true
  }

  /// Releases the nodes and the metadata, destroys the registry, forgets the graph (the
  /// connection is lost or ends).
  func unwatch() {
    threadLoop.assertLocked("PipeWireGraphWatch")
    for id in Array(boundNodes.keys) { unbindNode(id) }
    if let metadata {
      Self.release(metadata)
      self.metadata = nil
      metadataId = nil
    }
    if let registry {
      spa_hook_remove(registryHook)
      registryHook.pointee = spa_hook()
      pw_proxy_destroy(registry)
      self.registry = nil
    }
    graph.removeAll()
  }

  /// A global appeared: sinks and links go into the graph; playback stream nodes too, and are
  /// bound for their state; the `default` metadata is bound for the default sink.
  private func global(id: UInt32, type: String, props: UnsafePointer<spa_dict>?) {
    threadLoop.assertLocked("PipeWireGraphWatch")
    func lookup(_ key: String) -> String? {
      spa_dict_lookup(props, key).map { String(cString: $0) }
    }
    switch type {
    case "PipeWire:Interface:Node":
      switch lookup("media.class") {
      case "Audio/Sink":
        graph.addSink(id: id, name: lookup("node.name") ?? "")
        changed()
      case "Stream/Output/Audio":
        graph.addStream(
          id: id, serial: lookup("object.serial").flatMap { UInt32($0) },
          client: lookup("client.id").flatMap { UInt32($0) },
          applicationName: lookup("application.name"))
        bindNode(id)
        changed()
      default: break
      }
    case "PipeWire:Interface:Client":
      // Before the client's nodes: no graph change yet.
      graph.addClient(id: id, processID: lookup("pipewire.sec.pid").flatMap { Int32($0) })
    case "PipeWire:Interface:Link":
      guard let output = lookup("link.output.node").flatMap({ UInt32($0) }),
        let input = lookup("link.input.node").flatMap({ UInt32($0) })
      else { return }
      graph.addLink(id: id, output: output, input: input)
      changed()
    case "PipeWire:Interface:Metadata":
      guard metadata == nil, lookup("metadata.name") == "default",
        let bound = bind(id, type: type, version: PW_VERSION_METADATA)
      else { return }
      pb_pw_metadata_add_listener(bound.proxy, bound.hook, metadataEvents, userdata)
      metadata = bound
      metadataId = id
    default: break
    }
  }

  private func globalRemoved(id: UInt32) {
    threadLoop.assertLocked("PipeWireGraphWatch")
    if boundNodes[id] != nil { unbindNode(id) }
    if id == metadataId, let metadata {
      Self.release(metadata)
      self.metadata = nil
      metadataId = nil
      graph.defaultSinkName = nil
    }
    graph.remove(id: id)
    changed()
  }

  /// Binds a playback stream node: its `info` events carry the node state.
  private func bindNode(_ id: UInt32) {
    guard let bound = bind(id, type: "PipeWire:Interface:Node", version: PW_VERSION_NODE)
    else { return }
    pb_pw_node_add_listener(bound.proxy, bound.hook, nodeEvents, userdata)
    boundNodes[id] = bound
  }

  /// A proxy for the global `id` and a fresh hook for its listener.
  private func bind(_ id: UInt32, type: String, version: Int32) -> Bound? {
    guard let registry, let proxy = pw_registry_bind(registry, id, type, UInt32(version), 0)
    else { return nil }
    return Bound(proxy: OpaquePointer(proxy), hook: .allocate(initializedTo: spa_hook()))
  }

  private func unbindNode(_ id: UInt32) {
    guard let bound = boundNodes.removeValue(forKey: id) else { return }
    Self.release(bound)
  }

  /// Removes the listener, then destroys the proxy.
  private static func release(_ bound: Bound) {
    spa_hook_remove(bound.hook)
    bound.hook.deallocate()
    pw_proxy_destroy(bound.proxy)
  }

  /// A stream node's state: `running` means it plays; anything else (idle, suspended) is
  /// paused. `props`, when they changed, say whose stream it is (`application.process.id` on
  /// a pipewire-pulse stream; a native one names only `application.name`).
  private func nodeInfo(id: UInt32, running: Bool, props: UnsafePointer<spa_dict>?) {
    threadLoop.assertLocked("PipeWireGraphWatch")
    guard let before = graph.stream(id) else { return }
    graph.updateStream(id: id, running: running)
    if let props {
      func lookup(_ key: String) -> String? {
        spa_dict_lookup(props, key).map { String(cString: $0) }
      }
      graph.updateStream(
        id: id, processID: lookup("application.process.id").flatMap { Int32($0) },
        binary: lookup("application.process.binary"), applicationName: lookup("application.name")
      )
    }
    if graph.stream(id) != before { changed() }
  }

  /// `default.audio.sink` on the core (subject 0): the sink WirePlumber links us to.
  private func metadataProperty(subject: UInt32, key: String?, value: UnsafePointer<CChar>?) {
    threadLoop.assertLocked("PipeWireGraphWatch")
    guard subject == PW_ID_CORE, key == nil || key == "default.audio.sink" else { return }
    var name: String?
    if let value {
      var storage = [CChar](repeating: 0, count: 256)
      if pb_pw_json_name(value, &storage, Int32(storage.count)) == 0 {
        name = storage.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
      }
    }
    graph.defaultSinkName = name
    changed()
  }
}

internal import CPipeWire
import Glibc
import PulseBarCore

/// The PipeWire core: connecting, the round trips that say the graph is complete, a hang-up,
/// disconnecting. Each outcome is an event for the capture core, which decides what follows
/// (``OutagePolicy``'s back-off lives there).
extension PipeWireConnection {
  /// Fills the core's event table (once, at init).
  func fillCoreEvents() {
    coreEvents.pointee.version = UInt32(PW_VERSION_CORE_EVENTS)
    coreEvents.pointee.done = { data, id, seq in
      PipeWireConnection.from(data).coreDone(id: id, seq: seq)
    }
    coreEvents.pointee.error = { data, id, _, res, message in
      PipeWireConnection.from(data).coreError(
        id: id, res: res, message: message.map { String(cString: $0) } ?? "")
    }
  }

  /// Connects to the PipeWire core, listens to its registry and asks for a round trip; a
  /// failure is a lost server.
  func connect() {
    guard server.core == nil else { return }
    var properties: UnsafeMutablePointer<pw_properties>?
    if let remote {
      properties = pw_properties_new_string("")
      pw_properties_set(properties, PW_KEY_REMOTE_NAME, remote)
    }
    guard let core = pw_context_connect(context, properties, 0) else {
      return send(.serverLost(reason: "cannot connect: \(String(cString: strerror(errno)))"))
    }
    server.core = core
    pb_pw_core_add_listener(core, coreHook, coreEvents, userdata)
    guard watch.watchRegistry(of: core) else {
      return send(.serverLost(reason: "cannot get the registry"))
    }
    server.awaitedSync = pb_pw_core_sync(core, 0)
  }

  /// A round trip is done: after the second, the core is told the server is there.
  private func coreDone(id: UInt32, seq: Int32) {
    threadLoop.assertLocked("PipeWireConnection")
    guard id == PW_ID_CORE, let core = server.core, seq == server.awaitedSync else { return }
    server.roundTrips += 1
    guard server.roundTrips == 2 else {
      server.awaitedSync = pb_pw_core_sync(core, 0)
      return
    }
    server.awaitedSync = nil
    send(.connected)
  }

  /// An error on the connection itself (the server went away: `-EPIPE`) ends it; an error on
  /// another object is only logged for `-v`.
  private func coreError(id: UInt32, res: Int32, message: String) {
    threadLoop.assertLocked("PipeWireConnection")
    guard id == PW_ID_CORE else {
      debug?("PipeWire: error on object \(id): \(message)")
      return
    }
    guard res == -EPIPE else {
      debug?("PipeWire: core error \(res): \(message)")
      return
    }
    // Not torn down here: libpipewire is still inside the core's own dispatch.
    server.hungUp = true
    streamTimer?.armNow()
  }

  /// Destroys the streams, the proxies and the registry, then the core.
  func disconnect() {
    for stream in players { stream.destroy() }
    players.removeAll()
    monitor.close()
    watch.unwatch()
    told = PipeWireGraphEvents()
    if let core = server.core {
      spa_hook_remove(coreHook)
      coreHook.pointee = spa_hook()
      pw_core_disconnect(core)
    }
    server = PipeWireCoreState()
  }
}

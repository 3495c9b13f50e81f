internal import CPipeWire
import PulseBarSystem

/// Decides whether PipeWire serves the desktop's audio, for `input = auto`.
///
/// The rule: a PipeWire core answers on the remote (`PIPEWIRE_REMOTE`, else
/// `$XDG_RUNTIME_DIR/pipewire-0`) within the timeout AND its registry lists at least one
/// `Audio/Sink` node. A desktop whose sound runs on PulseAudio and that runs PipeWire only for
/// screen sharing has a core but no audio sinks (no session manager manages its sound cards),
/// so it keeps libpulse; one with no PipeWire at all has no core to answer.
package enum PipeWireProbe {
  /// The verdict and why, for `-v`.
  package struct Answer: Sendable, Equatable {
    package var pipeWireServesAudio: Bool
    package var reason: String
    /// The graph's rate (the core's `default.clock.rate`), when the core said it.
    package var graphRate: Int? = nil
  }

  /// Connects once, lists the registry in one round trip, disconnects. Blocks up to `timeout`
  /// microseconds.
  package static func detect(remote: String? = nil, timeout: UInt64 = 1_000_000) -> Answer {
    let name = remote ?? environment("PIPEWIRE_REMOTE") ?? "pipewire-0"
    pw_init(nil, nil)
    guard let mainLoop = pw_main_loop_new(nil) else {
      return Answer(pipeWireServesAudio: false, reason: "cannot make a PipeWire loop")
    }
    defer { pw_main_loop_destroy(mainLoop) }
    let loop = pw_main_loop_get_loop(mainLoop)
    guard let context = pw_context_new(loop, nil, 0) else {
      return Answer(pipeWireServesAudio: false, reason: "cannot make a PipeWire context")
    }
    defer { pw_context_destroy(context) }
    var properties: UnsafeMutablePointer<pw_properties>?
    if let remote {
      properties = pw_properties_new_string("")
      pw_properties_set(properties, PW_KEY_REMOTE_NAME, remote)
    }
    guard let core = pw_context_connect(context, properties, 0) else {
      return Answer(pipeWireServesAudio: false, reason: "no PipeWire core answers on \(name)")
    }
    defer { pw_core_disconnect(core) }
    let listing = Listing(mainLoop: mainLoop)
    list(core: core, loop: loop, into: listing, timeout: timeout)
    return answer(listing, remote: name, timeout: timeout)
  }

  /// Runs the loop until the core has listed its registry into `listing` (or `timeout`
  /// microseconds pass, or the core fails).
  private static func list(
    core: OpaquePointer, loop: UnsafeMutablePointer<pw_loop>?, into listing: Listing,
    timeout: UInt64
  ) {
    let data = Unmanaged.passUnretained(listing).toOpaque()
    let mainLoop = listing.mainLoop
    var coreEvents = Self.coreEvents()
    var registryEvents = Self.registryEvents()
    // libpipewire keeps these pointers while the loop runs: allocated, not `&local`.
    let coreHook = UnsafeMutablePointer<spa_hook>.allocate(capacity: 1)
    let registryHook = UnsafeMutablePointer<spa_hook>.allocate(capacity: 1)
    coreHook.initialize(to: spa_hook())
    registryHook.initialize(to: spa_hook())
    defer {
      coreHook.deallocate()
      registryHook.deallocate()
    }
    withUnsafeMutablePointer(to: &coreEvents) { coreEvents in
      withUnsafeMutablePointer(to: &registryEvents) { registryEvents in
        pb_pw_core_add_listener(core, coreHook, coreEvents, data)
        guard let registry = pw_core_get_registry(core, UInt32(PW_VERSION_REGISTRY), 0) else {
          return
        }
        pb_pw_registry_add_listener(registry, registryHook, registryEvents, data)
        let timer = pb_pw_loop_add_timer(
          loop, { data, _ in Listing.from(data).finish(answered: false) }, data)
        if let timer { pb_pw_loop_arm_timer(loop, timer, timeout) }
        pb_pw_core_sync(core, 0)
        pw_main_loop_run(mainLoop)
        if let timer { pb_pw_loop_destroy_source(loop, timer) }
        spa_hook_remove(registryHook)
        pw_proxy_destroy(registry)
      }
    }
    spa_hook_remove(coreHook)
  }

  /// The core's events: `done` ends the listing, `info` gives the graph's rate, `error` fails.
  private static func coreEvents() -> pw_core_events {
    var coreEvents = pw_core_events()
    coreEvents.version = UInt32(PW_VERSION_CORE_EVENTS)
    coreEvents.done = { data, id, _ in
      guard id == PW_ID_CORE else { return }
      Listing.from(data).finish(answered: true)
    }
    coreEvents.info = { data, info in
      guard let props = info?.pointee.props,
        let rate = spa_dict_lookup(props, "default.clock.rate").flatMap({ Int(String(cString: $0)) }
        ),
        (8000...768_000).contains(rate)
      else { return }
      Listing.from(data).graphRate = rate
    }
    coreEvents.error = { data, id, _, _, _ in
      guard id == PW_ID_CORE else { return }
      Listing.from(data).finish(answered: false)
    }
    return coreEvents
  }

  /// The registry's events: each `Audio/Sink` node is counted.
  private static func registryEvents() -> pw_registry_events {
    var registryEvents = pw_registry_events()
    registryEvents.version = UInt32(PW_VERSION_REGISTRY_EVENTS)
    registryEvents.global = { data, _, _, type, _, props in
      guard let type, String(cString: type) == "PipeWire:Interface:Node",
        let mediaClass = spa_dict_lookup(props, "media.class"),
        String(cString: mediaClass) == "Audio/Sink"
      else { return }
      Listing.from(data).sinkListed()
    }
    return registryEvents
  }

  /// The verdict from what the listing found on `name`.
  private static func answer(_ listing: Listing, remote name: String, timeout: UInt64) -> Answer {
    guard listing.answered else {
      return Answer(
        pipeWireServesAudio: false,
        reason: "PipeWire on \(name) did not list its objects within \(timeout / 1000) ms")
    }
    guard listing.sinks > 0 else {
      return Answer(
        pipeWireServesAudio: false,
        reason: "PipeWire on \(name) has no audio sinks (another server plays the sound)")
    }
    return Answer(
      pipeWireServesAudio: true,
      reason: "PipeWire on \(name) answers with \(listing.sinks) audio sink(s)",
      graphRate: listing.graphRate)
  }

  /// What the callbacks gather while the loop runs: confined to the thread that calls
  /// ``detect(remote:timeout:)`` (the loop runs there), checked in debug builds.
  private final class Listing {
    let mainLoop: OpaquePointer
    private(set) var sinks = 0
    var graphRate: Int? {
      didSet { confinement.check("PipeWireProbe.Listing") }
    }
    private(set) var answered = false
    private var finished = false
    private var confinement = ThreadConfinement()

    init(mainLoop: OpaquePointer) {
      self.mainLoop = mainLoop
      confinement.check("PipeWireProbe.Listing")
    }

    /// The registry listed one more `Audio/Sink` node.
    func sinkListed() {
      confinement.check("PipeWireProbe.Listing")
      sinks += 1
    }

    static func from(_ data: UnsafeMutableRawPointer?) -> Listing {
      Unmanaged<Listing>.fromOpaque(data!).takeUnretainedValue()
    }

    func finish(answered: Bool) {
      confinement.check("PipeWireProbe.Listing")
      guard !finished else { return }
      finished = true
      self.answered = answered
      pw_main_loop_quit(mainLoop)
    }
  }
}

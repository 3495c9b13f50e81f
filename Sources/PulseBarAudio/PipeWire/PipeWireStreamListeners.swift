internal import CPipeWire

/// A capture stream's two listeners and their storage, which libpipewire keeps pointers to (so
/// they live as long as their owner, the stream's loop-side object): the state listener, whose
/// `data` is that owner, on the loop thread; and the process listener, whose `data` is a
/// `Sendable` value fixed while the stream is connected, on the data thread
/// (`PW_STREAM_FLAG_RT_PROCESS`). The data thread so reaches nothing of the loop side.
final class PipeWireStreamListeners {
  private let stateHook = UnsafeMutablePointer.allocate(initializedTo: spa_hook())
  private let processHook = UnsafeMutablePointer.allocate(initializedTo: spa_hook())
  private let stateEvents: UnsafeMutablePointer<pw_stream_events>
  private let processEvents: UnsafeMutablePointer<pw_stream_events>

  /// Listeners that call `stateChanged` and `process` with their own `data`.
  init(
    stateChanged:
      @escaping @convention(c) (
        UnsafeMutableRawPointer?, pw_stream_state, pw_stream_state, UnsafePointer<CChar>?
      ) -> Void,
    process: @escaping @convention(c) (UnsafeMutableRawPointer?) -> Void
  ) {
    var events = pw_stream_events()
    events.version = UInt32(PW_VERSION_STREAM_EVENTS)
    events.state_changed = stateChanged
    stateEvents = .allocate(initializedTo: events)
    events.state_changed = nil
    events.process = process
    processEvents = .allocate(initializedTo: events)
  }

  deinit {
    stateHook.deallocate()
    processHook.deallocate()
    stateEvents.deallocate()
    processEvents.deallocate()
  }

  /// Listens to `stream`: state changes with `stateData`, buffers with `processData` (which
  /// must stay alive until ``destroy(_:)``).
  func add(
    to stream: OpaquePointer, stateData: UnsafeMutableRawPointer,
    processData: UnsafeMutableRawPointer
  ) {
    pw_stream_add_listener(stream, stateHook, stateEvents, stateData)
    pw_stream_add_listener(stream, processHook, processEvents, processData)
  }

  /// Disconnects and destroys `stream`, removing the listeners in between:
  /// `pw_stream_disconnect` waits until the data thread no longer processes the stream, so the
  /// listener list is never changed under a process callback that walks it, and nothing the
  /// process listener's `data` holds is read again. The state listener hears the disconnect's
  /// `UNCONNECTED` state first.
  func destroy(_ stream: OpaquePointer) {
    pw_stream_disconnect(stream)
    for hook in [stateHook, processHook] {
      spa_hook_remove(hook)
      hook.pointee = spa_hook()
    }
    pw_stream_destroy(stream)
  }
}

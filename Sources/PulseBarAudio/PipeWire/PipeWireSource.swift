internal import CPipeWire
import Glibc
import PulseBarSystem

/// Records what the default sink plays through libpipewire (`--input pipewire`), following
/// the default as WirePlumber changes it.
///
/// A `pw_stream` with `stream.capture.sink = true` and no target: WirePlumber links it to the
/// default sink's monitor and moves it along when the default changes. Samples are F32
/// interleaved at `sampleRate` with `channels` (PipeWire's adapter converts), one buffer per
/// graph period; the stream asks no latency, so the graph keeps its own period. The playback
/// state comes from the registry (see ``PipeWireGraph``); while nothing plays the stream is
/// inactive, so the sink may suspend. A lost or missing PipeWire is retried with back-off.
///
/// The libpipewire work lives in ``PipeWireConnection``, which only the loop's thread touches.
/// Two ways to run it, as ``PulseSource``: on a `pw_thread_loop` of its own (the default; this
/// class is then the thread-safe handle), or driven by the caller (`drivenByCaller`, what the
/// daemon does): a plain `pw_loop` whose descriptor the engine polls with its own and turns in
/// ``wait(_:timeoutMilliseconds:audioWanted:)``, so no loop thread wakes per quantum besides
/// libpipewire's data thread. Driven, `start`, `stop`, `formatChanged` and `wait` are called on
/// the engine's thread only.
package final class PipeWireSource: EngineDrivenCapture {
  /// What to record and how.
  package struct Settings: Sendable, Equatable {
    package var sampleRate: Int
    package var channels: Int
    /// The PipeWire remote (a socket name under XDG_RUNTIME_DIR or an absolute path), or `nil`
    /// for libpipewire's default (`PIPEWIRE_REMOTE`, else `pipewire-0`).
    package var remote: String?
  }

  /// The loop, its context and the connection it drives while started.
  private struct Runtime {
    /// `nil` when driven by the caller.
    let threadLoop: OpaquePointer?
    let loop: UnsafeMutablePointer<pw_loop>
    let context: OpaquePointer
    let connection: PipeWireConnection
  }

  private let initialSettings: Settings
  private let log: PulseSource.Log
  private let debug: PulseSource.Log?
  private let runtime = Lock<Runtime?>(nil)
  /// The caller polls and turns the loop (``wait(_:timeoutMilliseconds:audioWanted:)``).
  package let isDrivenByCaller: Bool

  /// `debug`, when given, gets the lines `-v` shows: the sink followed, the stream's states and
  /// activation.
  package init(
    sampleRate: Int = PulseSource.defaultSampleRate, channels: Int, remote: String? = nil,
    log: @escaping PulseSource.Log = { Console.error("pulsebar: \($0)\n") },
    debug: PulseSource.Log? = nil, drivenByCaller: Bool = false
  ) {
    isDrivenByCaller = drivenByCaller
    initialSettings = Settings(sampleRate: sampleRate, channels: channels, remote: remote)
    self.log = log
    self.debug = debug
  }

  deinit { stop() }

  /// Starts the loop thread and the first connection attempt; returns at once.
  /// The buffer must have this source's sample rate and channel count.
  package func start(into buffer: CaptureBuffer) {
    precondition(
      buffer.channels == initialSettings.channels
        && buffer.sampleRate == initialSettings.sampleRate)
    if isDrivenByCaller { return startDriven(into: buffer) }
    runtime.withLock { runtime in
      guard runtime == nil else { return }
      pw_init(nil, nil)
      guard let threadLoop = pw_thread_loop_new("pulsebar-pipewire", nil) else {
        log("PipeWire: cannot create the loop thread")
        return
      }
      guard let context = pw_context_new(pw_thread_loop_get_loop(threadLoop), nil, 0) else {
        log("PipeWire: cannot create a context")
        pw_thread_loop_destroy(threadLoop)
        return
      }
      let connection = PipeWireConnection(
        threadLoop: threadLoop, loop: pw_thread_loop_get_loop(threadLoop), context: context,
        settings: initialSettings, buffer: buffer, log: log, debug: debug)
      guard pw_thread_loop_start(threadLoop) == 0 else {
        log("PipeWire: cannot start the loop thread")
        pw_context_destroy(context)
        pw_thread_loop_destroy(threadLoop)
        return
      }
      connection.withLoopLock { connection.connect() }
      runtime = Runtime(
        threadLoop: threadLoop, loop: pw_thread_loop_get_loop(threadLoop), context: context,
        connection: connection)
    }
  }

  /// A plain `pw_loop` the caller turns; the context and the connection as on a thread loop.
  private func startDriven(into buffer: CaptureBuffer) {
    runtime.withLock { runtime in
      guard runtime == nil else { return }
      pw_init(nil, nil)
      guard let loop = pw_loop_new(nil) else {
        log("PipeWire: cannot create a loop")
        return
      }
      guard let context = pw_context_new(loop, nil, 0) else {
        log("PipeWire: cannot create a context")
        pw_loop_destroy(loop)
        return
      }
      let connection = PipeWireConnection(
        threadLoop: nil, loop: loop, context: context, settings: initialSettings,
        buffer: buffer, log: log, debug: debug)
      connection.connect()
      runtime = Runtime(threadLoop: nil, loop: loop, context: context, connection: connection)
    }
  }

  /// One turn of the driven loop: waits on `poll` and the loop's descriptor (its sockets, timers
  /// and the data thread's hand-overs, all behind one epoll descriptor), then runs what is due
  /// there (a quantum is copied into the buffer right here). Without `audioWanted` the loop's
  /// descriptor waits for the next turn. Allocates nothing.
  package func wait(_ poll: inout PollSet, timeoutMilliseconds: Int32, audioWanted: Bool) -> Int {
    let current = runtime.withLock { $0 }
    guard let current, current.threadLoop == nil else {
      return poll.wait(timeoutMilliseconds: timeoutMilliseconds)
    }
    let wanted = audioWanted || timeoutMilliseconds < 0
    var entry = pollfd(fd: pb_pw_loop_fd(current.loop), events: Int16(POLLIN), revents: 0)
    let ready = withUnsafeMutablePointer(to: &entry) { pointer in
      poll.wait(
        timeoutMilliseconds: timeoutMilliseconds,
        alongside: UnsafeMutableBufferPointer(start: pointer, count: wanted ? 1 : 0))
    }
    if ready.foreign > 0 { _ = pb_pw_loop_turn(current.loop) }
    return ready.own
  }

  /// Remakes the capture stream at the buffer's new channel count (a reload); the connection
  /// and the followed sink stay.
  package func formatChanged() {
    runtime.withLock { runtime in
      guard let current = runtime else { return }
      let format = current.connection.buffer.format
      current.connection.withLoopLock { current.connection.reformat(format) }
    }
  }

  /// Disconnects, stops the loop thread and frees everything. Idempotent.
  package func stop() {
    runtime.withLock { runtime in
      guard let current = runtime else { return }
      current.connection.withLoopLock { current.connection.shutdown() }
      if let threadLoop = current.threadLoop {
        pw_thread_loop_stop(threadLoop)
        pw_context_destroy(current.context)
        pw_thread_loop_destroy(threadLoop)
      } else {
        pw_context_destroy(current.context)
        pw_loop_destroy(current.loop)
      }
      runtime = nil
    }
  }
}

internal import CPipeWire
import PulseBarCore
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
/// All of these decisions are the capture core's (``CaptureCore``), as on PulseAudio.
///
/// With `input.scope = player`, while the active MPRIS player plays, a capture stream on each
/// of its stream nodes (`target.object` = the node's `object.serial`) records it alone, mixed,
/// and the monitor stream is inactive (``PlayerStreamSelection``).
///
/// The libpipewire work lives in ``PipeWireConnection``, which only the `pw_thread_loop`'s
/// thread touches (or a caller holding its lock, asserted in debug); this class is the
/// thread-safe handle.
package final class PipeWireSource: CaptureSource {
  /// What to record and how.
  package struct Settings: Sendable, Equatable {
    package var sampleRate: Int
    package var channels: Int
    /// The PipeWire remote (a socket name under XDG_RUNTIME_DIR or an absolute path), or `nil`
    /// for libpipewire's default (`PIPEWIRE_REMOTE`, else `pipewire-0`).
    package var remote: String?
    /// Whether the active player's stream nodes are recorded while it plays.
    package var scope: CaptureScope = .player
  }

  /// The loop, its context and the connection it drives while started. Not `Sendable`: the
  /// connection is confined by the loop's lock, which every use below takes
  /// (``PipeWireThreadLoop/withLock(_:)``).
  private struct Runtime {
    let threadLoop: PipeWireThreadLoop
    let context: OpaquePointer
    let connection: PipeWireConnection
  }

  private let initialSettings: Settings
  private let log: CaptureLog
  private let debug: CaptureLog?
  private let runtime = Lock<Runtime?>(nil)

  /// PipeWire's default `default.clock.rate`: the capture rate when the graph's is not known.
  package static let defaultGraphRate = 48000

  /// `debug`, when given, gets the lines `-v` shows: the sink followed, the stream's states and
  /// activation. `sampleRate` is best the graph's (``PipeWireProbe/Answer/graphRate``): any
  /// other rate is resampled in this process.
  package init(
    sampleRate: Int = PulseSource.defaultSampleRate, channels: Int, remote: String? = nil,
    scope: CaptureScope = .player,
    log: @escaping CaptureLog = { Console.error("pulsebar: \($0)\n") },
    debug: CaptureLog? = nil
  ) {
    initialSettings = Settings(
      sampleRate: sampleRate, channels: channels, remote: remote, scope: scope)
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
    runtime.withLock { runtime in
      guard runtime == nil else { return }
      guard let threadLoop = PipeWireThreadLoop(name: "pulsebar-pipewire") else {
        log("PipeWire: cannot create the loop thread")
        return
      }
      guard let context = pw_context_new(threadLoop.loop, nil, 0) else {
        log("PipeWire: cannot create a context")
        threadLoop.destroy()
        return
      }
      let connection = PipeWireConnection(
        threadLoop: threadLoop, context: context, settings: initialSettings, buffer: buffer,
        log: log, debug: debug)
      guard threadLoop.start() else {
        log("PipeWire: cannot start the loop thread")
        pw_context_destroy(context)
        threadLoop.destroy()
        return
      }
      threadLoop.withLock { connection.start() }
      runtime = Runtime(threadLoop: threadLoop, context: context, connection: connection)
    }
  }

  /// Takes what a reload changed, in one core event: a new channel count remakes the streams
  /// (the connection and the followed sink stay), a new scope plans afresh. The analysis rate
  /// changes nothing here: one quantum throughout.
  package func reconfigure(_ change: CaptureChange) {
    runtime.withLock { runtime in
      guard let current = runtime else { return }
      current.threadLoop.withLock { current.connection.reconfigure(change) }
    }
  }

  /// Records the active player's stream nodes while it plays (``PlayerStreamSelection``).
  package func follow(player: PlayerAudioIdentity?) {
    runtime.withLock { runtime in
      guard let current = runtime else { return }
      current.threadLoop.withLock { current.connection.follow(player: player) }
    }
  }

  /// Disconnects, stops the loop thread and frees everything. Idempotent.
  package func stop() {
    runtime.withLock { runtime in
      guard let current = runtime else { return }
      current.threadLoop.withLock { current.connection.shutdown() }
      current.threadLoop.stop()
      pw_context_destroy(current.context)
      current.threadLoop.destroy()
      runtime = nil
    }
  }
}

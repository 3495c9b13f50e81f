internal import CAudioLibraries
internal import CPulse
import Glibc
import PulseBarCore
import PulseBarSystem

/// Records from PulseAudio: the monitor of the current default sink (following
/// changes), or a named source.
///
/// Built on libpulse's asynchronous API; the libpulse work lives in ``PulseConnection``. No
/// thread of its own: a plain `pa_mainloop` that the caller's loop (the engine's) iterates
/// inside its own wait (``wait(_:timeoutMilliseconds:audioWanted:)``), so a fragment wakes one
/// thread once, and libpulse's callbacks run on the caller's thread. `start`, `stop`,
/// `reconfigure` and `wait` are called on that thread only. Its only mutable state sits in
/// a `Lock`.
///
/// Samples are float32 at `sampleRate` with `channels` interleaved, in fragments of 512
/// frames for the first half second of music (a fast onset), then of 3072 (about four frames
/// of analysis, a light server); on PipeWire, of its default quantum throughout (see
/// ``Settings/fragmentBytes(frames:bytesPerSample:pipeWireGraphRate:)``). The record stream is corked while nothing
/// plays into the monitored sink, so an idle daemon costs nothing. A lost or
/// missing server is retried with back-off forever.
/// A reload that changes channels or fps remakes the record stream (``reconfigure(_:)``).
package final class PulseSource: EngineDrivenCapture {
  /// What to record and how; fixed at creation.
  package struct Settings: Sendable, Equatable {
    /// A source name, or `nil` for the monitor of the default sink.
    package var sourceName: String?
    package var sampleRate: Int
    package var channels: Int
    package var fps: Int
    /// The server address (`unix:/path`), or `nil` for libpulse's default (`PULSE_SERVER`, …).
    package var server: String?
    /// Whether the active player's streams are recorded while it plays (ignored for a named
    /// source).
    package var scope: CaptureScope = .player
    /// Frames a second the engine analyses now (its fastest consumer's rate, at most `fps`):
    /// what sizes the steady fragment (``steadyFrames``).
    package var analysisRate = 60

    /// PipeWire's default quantum (`clock.quantum`), in frames at the graph's rate.
    package static let pipeWireQuantum = 1024

    /// PulseAudio's record fragment once music plays steadily, in frames at the stream's
    /// rate: 3072 (70 ms at 44.1 kHz), whatever the fps; the engine draws the 4.2 frames it
    /// holds one at a time (``FramePacer``).
    ///
    /// The server wakes once per fragment for us, and with `ADJUST_LATENCY` its null or
    /// hardware sink renders in blocks that size too, so the server's work for us falls as
    /// the fragment grows: one frame per fragment (735 frames, 60 a second) would make it
    /// work harder for pulsebar than it does for cava. 3072 is the largest that keeps the bars
    /// within 70 ms of the sound, about as far apart as cava's own chunks come; 4096 would
    /// show a kick drum 93 ms late. The server's CPU at each size is in bench/README.md.
    package static let steadyFragmentFrames = 3072

    /// The steady fragment at the rate the engine analyses: about three frames' audio, never
    /// under ``steadyFragmentFrames`` nor over a tenth of a second. At 60 frames a second that
    /// is 3072; with only `fps=30` clients (Waybar's snippet) 4410 at 44.1 kHz, which the
    /// server and pulsebar wake for a third less often, the bars then up to 100 ms behind
    /// the music instead of 70 (an onset after silence still takes the onset fragment).
    package static func steadyFrames(sampleRate: Int, analysisRate: Int) -> Int {
      let threeFrames = 3 * sampleRate / max(1, analysisRate)
      return min(max(steadyFragmentFrames, threeFrames), max(steadyFragmentFrames, sampleRate / 10))
    }

    /// ``steadyFrames(sampleRate:analysisRate:)`` for these settings.
    package var steadyFrames: Int {
      Self.steadyFrames(sampleRate: sampleRate, analysisRate: analysisRate)
    }

    /// PulseAudio's record fragment while music starts (``steadyAfterSeconds``): 512 frames
    /// (12 ms at 44.1 kHz), so the first bars follow the first sound by a few milliseconds
    /// instead of a steady fragment's 70. A fresh stream and an uncorked one start with it.
    package static let onsetFragmentFrames = 512

    /// Seconds of audio on the onset fragment before the steady one is asked for
    /// (``RecordFragment/steadyAfterSeconds``).
    package static let steadyAfterSeconds = RecordFragment.steadyAfterSeconds

    /// The record fragment size in bytes: on PulseAudio `frames` (``onsetFragmentFrames`` or
    /// ``steadyFragmentFrames``); on PipeWire (`graphRate` given: the rate of the recorded
    /// node) PipeWire's default quantum, whatever the fps, and never changed while recording.
    ///
    /// pipewire-pulse makes a record stream's fragment its `node.latency`, and the graph runs
    /// at the smallest latency any node asks for, rounded down to a power of two: one frame
    /// (735 frames at 44.1 kHz, 800 at 48 kHz) would take the whole desktop from a
    /// 1024-frame quantum to 512, twice the wake-ups for every audio client. A quantum's
    /// worth (rounded up, so it never rounds down to 512) keeps the server's own period;
    /// frames are still paced by the audio, one or two per fragment.
    package func fragmentBytes(
      frames: Int? = nil, bytesPerSample: Int,
      pipeWireGraphRate graphRate: Int? = nil
    ) -> UInt32 {
      let bytesPerFrame = channels * bytesPerSample
      guard let graphRate, graphRate > 0 else {
        return UInt32((frames ?? steadyFrames) * bytesPerFrame)
      }
      let frames = (Self.pipeWireQuantum * sampleRate + graphRate - 1) / graphRate
      return UInt32(frames * bytesPerFrame)
    }
  }

  /// The mainloop and the connection it drives while started.
  private struct Runtime {
    let mainloop: OpaquePointer
    let connection: PulseConnection
    /// The caller's poll set during a wait, for the mainloop's poll function.
    let bridge: PollBridge
  }

  /// What the `pa_mainloop`'s poll function needs: the caller's poll set while it waits
  /// (set only for the duration of one
  /// ``PulseSource/wait(_:timeoutMilliseconds:audioWanted:)``), and how many of its
  /// descriptors were ready.
  private final class PollBridge: PulseCallbackTarget {
    var poll: UnsafeMutablePointer<PollSet>?
    var ownReady = 0
    /// False while the engine has frames queued: libpulse's descriptors wait for the next turn.
    var audioWanted = true
  }

  /// The rate asked of the server unless told otherwise (it resamples the monitor).
  package static let defaultSampleRate = 44100

  /// What to record and how; channels, fps, the analysis rate and the scope change with
  /// ``reconfigure(_:)``.
  package var settings: Settings { currentSettings.withLock { $0 } }
  private let currentSettings: Lock<Settings>
  private let log: CaptureLog
  private let debug: CaptureLog?
  private let runtime = Lock<Runtime?>(nil)

  /// `debug`, when given, gets the lines `-v` shows: the source recorded (a sink switch), the
  /// record stream's states, corking and uncorking.
  package init(
    sourceName: String?, sampleRate: Int = defaultSampleRate, channels: Int, fps: Int,
    server: String? = nil, scope: CaptureScope = .player,
    log: @escaping CaptureLog = { Console.error("pulsebar: \($0)\n") }, debug: CaptureLog? = nil
  ) {
    self.log = log
    self.debug = debug
    currentSettings = Lock(
      Settings(
        sourceName: sourceName, sampleRate: sampleRate, channels: channels, fps: fps,
        server: server, scope: scope, analysisRate: fps))
  }

  deinit { stop() }

  /// Makes the mainloop, whose poll function waits on the caller's poll set too, and starts
  /// the first connection attempt; returns at once. The buffer must have this source's sample
  /// rate and channel count.
  package func start(into buffer: CaptureBuffer) {
    let settings = settings
    precondition(buffer.channels == settings.channels && buffer.sampleRate == settings.sampleRate)
    // libpulse is opened here, not linked (CAudioLibraries): a desktop without it gets this
    // line, and frames that say "disconnected", as when no server answers.
    if let error = pulsebar_open_libpulse() {
      log(
        "PulseAudio: \(String(cString: error)); install libpulse0, or record PipeWire natively (--input pipewire)"
      )
      return
    }
    runtime.withLock { runtime in
      guard runtime == nil, let mainloop = pa_mainloop_new() else { return }
      let bridge = PollBridge()
      pa_mainloop_set_poll_func(
        mainloop,
        { descriptors, count, timeout, userdata in
          let bridge = PollBridge.from(userdata)
          let foreign = UnsafeMutableBufferPointer(start: descriptors, count: Int(count))
          guard let poll = bridge.poll else {
            return Glibc.poll(descriptors, nfds_t(count), timeout)
          }
          // Frames still queued: only the engine's descriptors, until the next one is due.
          if !bridge.audioWanted {
            for index in foreign.indices { foreign[index].revents = 0 }
          }
          let ready = poll.pointee.wait(
            timeoutMilliseconds: timeout,
            alongside: bridge.audioWanted
              ? foreign : UnsafeMutableBufferPointer(rebasing: foreign[0..<0]))
          bridge.ownReady = ready.own
          return Int32(ready.foreign)
        }, bridge.userdata)
      let connection = PulseConnection(
        mainloop: mainloop, settings: settings, buffer: buffer, log: log, debug: debug)
      connection.start()
      runtime = Runtime(mainloop: mainloop, connection: connection, bridge: bridge)
    }
  }

  /// One turn of the mainloop: waits on `poll` and libpulse's descriptors and timers
  /// (whichever comes first, at most `timeoutMilliseconds`), then runs libpulse's callbacks
  /// (a fragment is copied into the buffer right here). Allocates nothing.
  package func wait(_ poll: inout PollSet, timeoutMilliseconds: Int32, audioWanted: Bool) -> Int {
    guard let current = runtime.withLock({ $0 }) else {
      return poll.wait(timeoutMilliseconds: timeoutMilliseconds)
    }
    let (mainloop, bridge) = (current.mainloop, current.bridge)
    bridge.ownReady = 0
    bridge.audioWanted = audioWanted || timeoutMilliseconds < 0
    // libpulse takes microseconds; its own timers (the retry back-off) may shorten the wait.
    let timeout =
      timeoutMilliseconds < 0 ? -1 : Int32(min(Int(timeoutMilliseconds) * 1000, 2_000_000_000))
    guard pa_mainloop_prepare(mainloop, timeout) >= 0 else { return 0 }
    withUnsafeMutablePointer(to: &poll) { pointer in
      bridge.poll = pointer
      _ = pa_mainloop_poll(mainloop)
      bridge.poll = nil
    }
    _ = pa_mainloop_dispatch(mainloop)
    return bridge.ownReady
  }

  /// Records the active player's streams while it plays (``PlayerStreamSelection``).
  package func follow(player: PlayerAudioIdentity?) {
    runtime.withLock { $0?.connection.follow(player: player) }
  }

  /// Takes what a reload or the engine's consumers changed, in one core event: a new channel
  /// count or fps rebuilds the record streams (a stream's sample spec and fragment are fixed
  /// when it is made; the connection and the followed sink stay, so a reload shows no
  /// `connected:false` frame and costs no reconnect), a new analysis rate resizes the steady
  /// fragment (``Settings/steadyFrames``), a new scope plans afresh. On the engine thread.
  package func reconfigure(_ change: CaptureChange) {
    currentSettings.withLock { settings in
      if let format = change.format {
        settings.channels = format.channels
        settings.fps = format.fps
      }
      if let rate = change.analysisRate { settings.analysisRate = rate }
      if let scope = change.scope { settings.scope = scope }
    }
    runtime.withLock { $0?.connection.reconfigure(change) }
  }

  /// Disconnects and frees everything. Idempotent.
  package func stop() {
    runtime.withLock { runtime in
      guard let current = runtime else { return }
      current.connection.shutdown()
      pa_mainloop_free(current.mainloop)
      runtime = nil
    }
  }
}

import Glibc
import PulseBarCore
import PulseBarSystem

/// The `--foreground` delivery: draws each frame into the ``TerminalView``, with the
/// status line's figures (fps and CPU measured here, socket figures asked of the daemon through
/// a closure, the onset latency estimated as one frame of audio).
///
/// Registers the same consumer as stdout (format and bar count of the configuration), so
/// the pipeline bands no extra layout. Confined to the engine thread, like the view, which
/// debug builds assert.
/// Wiring: `engine.input = (view.inputDescriptor, { !view.handleInput() })`, call
/// `view.enter()` before `engine.run()` and `view.restore()` after it.
///
/// Its ``wakeDescriptor`` asks the engine for a frame without audio: once at start (so
/// the view is drawn even while nothing plays) and on ``requestRedraw()``. A resize while
/// the engine sleeps arrives as SIGWINCH, which the engine turns into a frame of its own.
package final class TerminalDelivery: FrameDelivery {
  package let view: TerminalView
  package private(set) var wantedKeys: [ConsumerKey]
  package private(set) var keysVersion: UInt64 = 0
  /// Socket clients connected and frames dropped for slow ones; `nil` shows zeros.
  package var socketFigures: (() -> (clients: Int, dropped: Int))?
  /// Readable while a redraw is pending.
  private let wake = WakeSignal()
  /// The eventfd the engine polls.
  package var wakeDescriptor: FileDescriptor? { wake.descriptor }
  private var key: ConsumerKey
  private var meter = TerminalMeter()
  private var wakePending = false
  private var confinement = ThreadConfinement()

  package init(view: TerminalView, configuration: Configuration) {
    self.view = view
    key = ConsumerKey(format: configuration.format, bars: configuration.bars)
    wantedKeys = [key]
    requestRedraw()
  }

  /// Follows a reload's format and bar count as planned (``ReloadPlan/outputKey``), as stdout
  /// does (the view draws the bar count), and its bubble glyphs.
  package func reload(_ plan: ReloadPlan) {
    confinement.check("TerminalDelivery")
    view.reconfigure(plan.applied)
    guard let newKey = plan.outputKey else { return }
    key = newKey
    wantedKeys = [newKey]
    keysVersion &+= 1
  }

  /// A redraw was asked for: the engine delivers the current frame again.
  package func service(now: Double) -> Bool { true }

  /// Asks the engine to deliver the current frame again (after a resize, say).
  package func requestRedraw() {
    confinement.check("TerminalDelivery")
    wake.signal()
    wakePending = true
  }

  package func deliver(pipeline: FramePipeline, info: FrameInfo) -> Bool {
    confinement.check("TerminalDelivery")
    if wakePending {
      wake.drain()
      wakePending = false
    }
    guard let bars = pipeline.displayedBars(count: key.bars) else { return true }
    meter.frame(now: info.clock ?? 0)
    let figures = socketFigures?() ?? (clients: 0, dropped: 0)
    // Seconds from sound to the first frame that shows it, estimated as one frame of audio.
    let latency = Double(pipeline.hopFrames) / Double(pipeline.sampleRate)
    let status = TerminalStatus(
      source: info.connected ? info.source : "audio server unreachable",
      state: pipeline.scene.state, fps: meter.fps, onsetLatency: latency,
      cpuPercent: meter.cpuPercent, socketClients: figures.clients,
      droppedFrames: figures.dropped)
    view.draw(scene: pipeline.scene, bars: bars, status: status)
    return true
  }
}

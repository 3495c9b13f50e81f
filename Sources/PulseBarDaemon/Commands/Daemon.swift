import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarPlayers
import PulseBarSystem

/// A live `pulsebar run`: start-up (the deliveries, the socket, the players, the engine),
/// reload and shutdown, around an input ``RunCommand`` made.
///
/// What a reload does is ``ReloadPlan``'s decision and ``Engine/apply(_:)`` carries it out;
/// this type reads the file, makes the plan and logs it.
final class Daemon {
  private let source: CaptureSource
  private let sampleRate: Int
  /// The configuration the daemon started with.
  private let configuration: Configuration
  /// The configuration last applied (at start, then by each reload): what a reload is planned
  /// against, and what restart-only keys keep.
  private var running: Configuration
  private let options: RunOptions
  private let logger: Logger
  private let notifier: SystemdNotifier?
  private var playerWatcher: PlayerWatcher?
  /// The config warnings already said (each is said once, not again at every reload).
  private var warned: Set<String>
  /// The socket, whose status tells the last reload's outcome.
  private var socket: SocketHandler?

  init(
    source: CaptureSource, sampleRate: Int, configuration: Configuration, options: RunOptions,
    warned: Set<String> = []
  ) {
    self.warned = warned
    self.source = source
    self.sampleRate = sampleRate
    self.configuration = configuration
    running = configuration
    self.options = options
    logger = Logger(verbose: options.verbose)
    notifier = SystemdNotifier.fromEnvironment()
  }

  /// Runs until a stop signal, the end of the input or a closed stdout; the exit status.
  func run() -> Int32 {
    guard
      let (pipeline, key) = RunCommand.makePipeline(
        configuration: configuration, sampleRate: sampleRate)
    else { return 2 }
    // The terminal view refuses before anything starts when stdout is not a terminal.
    var terminal: TerminalDelivery?
    if options.foreground {
      do {
        terminal = TerminalDelivery(
          view: try TerminalView(configuration: configuration), configuration: configuration)
      } catch {
        Console.error("pulsebar: \(error)\n")
        return 2
      }
    }
    guard let signals = SignalReceiver.blockingDaemonSignals(command: "pulsebar") else {
      return 1
    }
    let socket: SocketHandler?
    do {
      socket = try DaemonSocket.open(
        socketPath: options.socketPath, configuration: configuration, sampleRate: sampleRate,
        logger: logger)
      socket?.statusDesk.facts.configPath = options.configPath ?? ConfigLoading.defaultPath()
      self.socket = socket
      try socket?.start()
    } catch {
      logger.error("\(error)")
      return 1
    }
    // In the foreground the terminal view owns stdout.
    var deliveries: [FrameDelivery] = []
    let standardOutput =
      options.writeStdout && terminal == nil ? DescriptorDelivery(key: key) : nil
    if let standardOutput { deliveries.append(standardOutput) }
    if let socket { deliveries.append(socket) }
    if let terminal {
      deliveries.append(terminal)
      if let socket { terminal.socketFigures = { (socket.clientCount, socket.droppedFrames) } }
    }
    playerWatcher = startPlayerWatcher()
    socket?.statusDesk.facts.playerRoster = playerWatcher?.roster
    let (engine, buffer) = makeEngine(
      pipeline: pipeline, deliveries: deliveries, signals: signals)
    let status = run(engine, buffer: buffer, terminal: terminal)
    notifier?.stopping()
    socket?.stop()
    playerWatcher?.stop()
    source.stop()
    let logger = logger
    return standardOutput?.exitStatus(status) { logger.error($0) } ?? status
  }

  /// Follows the session bus's MPRIS players while the input is the audio server (a file or a
  /// fifo is not what the desktop's players play). Without a bus: one line, and the audio
  /// alone decides the state.
  private func startPlayerWatcher() -> PlayerWatcher? {
    guard configuration.input.isAudioServer else { return nil }
    let logger = logger
    do {
      return try PlayerWatcher.start(
        settings: PlayerSettings(configuration, home: environment("HOME")),
        log: { logger.warning($0) },
        debug: { logger.debug($0) })
    } catch {
      logger.notice("\(error); MPRIS players are not followed, the audio alone decides the state")
      return nil
    }
  }

  /// The engine, and the capture buffer the source is to fill.
  private func makeEngine(
    pipeline: FramePipeline, deliveries: [FrameDelivery], signals: SignalReceiver
  ) -> (Engine<SystemEngineClock>, CaptureBuffer) {
    // Half a second: seven steady PulseAudio fragments, PipeWire's largest quantum (8192) twice.
    // Audio older than that when the engine reads is overwritten; the frame drawn after a
    // stall shows the newest audio anyway, and every page of the ring is resident as it
    // cycles, so a longer ring is unique memory for nothing.
    let buffer = CaptureBuffer(
      sampleRate: sampleRate, channels: configuration.channels.count, fps: configuration.fps,
      seconds: 0.5)
    let engine = Engine(
      pipeline: pipeline, buffer: buffer, capture: source, deliveries: deliveries,
      signals: signals, reload: { [unowned self] in reload() }, playerFeed: playerWatcher?.feed,
      playerSettings: playerWatcher?.settings, clock: SystemEngineClock())
    // Code that runs once, at start-up (options, config, FFT plans) or when the state changes
    // (a stream set up, playback starting), leaves the resident set after it; what the frames
    // use faults back in (bench/README.md "Memory"). State changes are seconds apart at the
    // least.
    let notifier = notifier
    let logger = logger
    engine.onStatus = { status in
      notifier?.status(status)
      ResidentPages.releaseCleanFileMappings()
    }
    engine.debug = { logger.debug($0) }
    return (engine, buffer)
  }

  /// Starts the capture and runs the engine (in the terminal view with `--foreground`, whose
  /// log file takes the capture's lines from the start), with the systemd notifications and
  /// the watchdog around it.
  private func run(
    _ engine: Engine<SystemEngineClock>, buffer: CaptureBuffer, terminal: TerminalDelivery?
  ) -> Int32 {
    var stderrLog: StderrRedirection?
    if let view = terminal?.view {
      // q, Q or Ctrl-C in the view quits; SIGTERM/SIGINT arrive through the signal descriptor.
      engine.input = (view.inputDescriptor, { !view.handleInput() })
      // Log lines would scribble over the full-screen view: they go to a file meanwhile.
      stderrLog = StderrRedirection(
        path: (environment("XDG_RUNTIME_DIR") ?? "/tmp") + "/pulsebar-foreground.log")
      view.enter()
    }
    defer {
      terminal?.view.restore()
      stderrLog?.restore()
    }
    source.start(into: buffer)
    notifier?.ready(status: "capturing \(configuration.input)")
    let health = engine.health
    notifier?.startWatchdog { limit in health.isHealthy(limit: limit) }
    let released = ResidentPages.releaseCleanFileMappings()
    logger.debug("released \(released.kilobytes) kB of start-up pages")
    return engine.run()
  }

  /// SIGHUP or SIGUSR1: the config file read again, with the command line's overrides, and
  /// the ``ReloadPlan`` against the running configuration, or `nil` (logged) to keep it.
  private func reload() -> ReloadPlan? {
    notifier?.reloading()
    defer { notifier?.ready(status: "reloaded") }
    logger.debug("reload: reading \(options.configPath ?? ConfigLoading.defaultPath())")
    do {
      let plan = ReloadPlan(
        running: running,
        reloaded: try ConfigLoading.apply(
          options.overrides,
          to: ConfigLoading.load(path: options.configPath) { [logger] warning in
            if warned.insert(warning.description).inserted { logger.warning("\(warning)") }
          }),
        sampleRate: sampleRate)
      if let notice = plan.notice { logger.notice(notice) }
      if let refusal = plan.refusal {
        logger.error("config not reloaded, keeping the old one: \(refusal)")
        socket?.statusDesk.facts.lastReload = ReloadOutcome(at: socket?.now ?? 0, error: refusal)
        return nil
      }
      running = plan.applied
      logger.debug("reload: new config in effect")
      socket?.statusDesk.facts.lastReload = ReloadOutcome(at: socket?.now ?? 0, error: nil)
      return plan
    } catch {
      logger.error("config not reloaded, keeping the old one: \(error)")
      socket?.statusDesk.facts.lastReload = ReloadOutcome(
        at: socket?.now ?? 0, error: "\(error)")
      return nil
    }
  }
}

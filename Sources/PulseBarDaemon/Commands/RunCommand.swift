import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarPlayers
import PulseBarSystem

/// `pulsebar run`: builds the configuration, the input, the pipeline and the
/// deliveries, then runs the engine (or, with `--offline`, reads the file as
/// fast as possible). Returns the exit status.
package enum RunCommand {
  package static func run(_ options: RunOptions) -> Int32 {
    let configuration: Configuration
    do {
      configuration = try ConfigLoading.apply(
        options.overrides, to: ConfigLoading.load(path: options.configPath))
    } catch {
      Console.error("pulsebar: \(error)\n")
      return 2
    }
    if options.offline, case .file = configuration.input {
    } else if options.offline {
      Console.error("pulsebar: --offline needs --input file:PATH\n")
      return 2
    }
    ResidentPages.useOneMallocArena()
    switch configuration.input {
    case .file(let path):
      let file: AudioFile
      do {
        file = try AudioFile(path: path, outputChannels: configuration.channels.count)
      } catch {
        Console.error("pulsebar: \(error)\n")
        return 1
      }
      if options.offline { return runOffline(file: file, configuration: configuration) }
      return runLive(
        source: PacedFileSource(file: file), sampleRate: file.sampleRate,
        configuration: configuration, options: options)
    case .fifo(let path):
      do {
        try RawPCMSource.openFIFO(path).closeQuietly()
      } catch {
        Console.error("pulsebar: \(error)\n")
        return 1
      }
      return runLive(
        source: RawPCMSource(origin: .fifo(path: path), inputChannels: configuration.rawChannels),
        sampleRate: configuration.rawSampleRate, configuration: configuration, options: options)
    case .stdin:
      return runLive(
        source: RawPCMSource(origin: .standardInput, inputChannels: configuration.rawChannels),
        sampleRate: configuration.rawSampleRate, configuration: configuration, options: options)
    case .auto, .pulse, .pipewire:
      // A missing server is waited for.
      let (source, sampleRate) = serverSource(
        configuration: configuration, verbose: options.verbose)
      return runLive(
        source: source, sampleRate: sampleRate, configuration: configuration, options: options)
    }
  }

  /// The capture for audio-server input: libpulse for `pulse[:NAME]`, libpipewire for
  /// `pipewire`, and for `auto` whichever ``PipeWireProbe`` says serves the desktop's audio
  /// (`-v` says which and why). With the rate the capture delivers: PulseAudio resamples the
  /// monitor to 44.1 kHz; native PipeWire captures at the graph's own rate (48 kHz on most
  /// desktops), since a stream at another rate resamples inside our process (its adapter):
  /// CPU and the resampler's tables for nothing.
  private static func serverSource(configuration: Configuration, verbose: Bool) -> (
    CaptureSource, sampleRate: Int
  ) {
    let logger = Logger(verbose: verbose)
    // A capture debug line (a stream made, a fragment grown) comes after the state change
    // that last released the start-up pages; the logging code it ran leaves the resident
    // set the same way. They come a few per state change (~2 ms each).
    let debug: PulseSource.Log? =
      logger.isVerbose
      ? { @Sendable message in
        logger.debug(message)
        ResidentPages.releaseCleanFileMappings()
      } : nil
    var native = false
    var graphRate: Int?
    var sourceName: String?
    switch configuration.input {
    case .pipewire:
      native = true
      graphRate = PipeWireProbe.detect().graphRate
    case .pulse(let name): sourceName = name
    default:  // auto (file, fifo and stdin input never come here)
      let answer = PipeWireProbe.detect()
      native = answer.pipeWireServesAudio
      graphRate = answer.graphRate
      logger.debug(
        "input auto: \(native ? "native PipeWire" : "libpulse") (\(answer.reason))")
    }
    if native {
      // PipeWire's default clock rate when the core did not answer (yet).
      let rate = graphRate ?? PipeWireSource.defaultGraphRate
      logger.debug("PipeWire: capturing at \(rate) Hz, the graph's rate")
      let source = PipeWireSource(
        sampleRate: rate, channels: configuration.channels.count, log: { logger.warning($0) },
        debug: debug)
      return (source, rate)
    }
    let source = PulseSource(
      sourceName: sourceName, sampleRate: PulseSource.defaultSampleRate,
      channels: configuration.channels.count, fps: configuration.fps,
      log: { logger.warning($0) }, debug: debug)
    return (source, PulseSource.defaultSampleRate)
  }

  /// Follows the session bus's MPRIS players while the input is the audio server (a file or a
  /// fifo is not what the desktop's players play). Without a bus: one line, and the audio
  /// alone decides the state.
  private static func startPlayers(configuration: Configuration, logger: Logger)
    -> PlayerWatcher?
  {
    guard configuration.input.isAudioServer else { return nil }
    do {
      return try PlayerWatcher.start(
        preference: configuration.players, log: { logger.warning($0) },
        debug: { logger.debug($0) })
    } catch {
      logger.notice("\(error); MPRIS players are not followed, the audio alone decides the state")
      return nil
    }
  }

  /// The key stdout writes, validated (a layout that cannot be made is a usage error).
  private static func makePipeline(configuration: Configuration, sampleRate: Int) -> (
    FramePipeline, ConsumerKey
  )? {
    let pipeline = FramePipeline(configuration: configuration, sampleRate: sampleRate)
    let key = ConsumerKey(format: configuration.format, bars: configuration.bars)
    do {
      try pipeline.addConsumer(key)
    } catch {
      Console.error("pulsebar: \(error)\n")
      return nil
    }
    return (pipeline, key)
  }

  /// Reads the whole file as fast as possible, one frame per `1/fps` s of audio.
  private static func runOffline(file: AudioFile, configuration: Configuration) -> Int32 {
    guard
      let (pipeline, key) = makePipeline(configuration: configuration, sampleRate: file.sampleRate)
    else { return 2 }
    let delivery = DescriptorDelivery(key: key)
    let channels = file.outputChannels
    let chunk = UnsafeMutableBufferPointer<Float>.allocate(capacity: pipeline.hopFrames * channels)
    defer { chunk.deallocate() }
    while true {
      let read = file.read(frames: pipeline.hopFrames, into: chunk)
      guard read > 0 else { break }
      pipeline.advance(
        audio: UnsafeBufferPointer(rebasing: chunk[..<(read * channels)]), activity: .running)
      let info = FrameInfo(time: pipeline.time, source: file.path, connected: true)
      pipeline.renderConsumers(info: info)
      guard delivery.deliver(pipeline: pipeline, info: info) else { break }
    }
    return 0
  }

  private static func runLive(
    source: CaptureSource, sampleRate: Int, configuration: Configuration, options: RunOptions
  ) -> Int32 {
    guard let (pipeline, key) = makePipeline(configuration: configuration, sampleRate: sampleRate)
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
    let logger = Logger(verbose: options.verbose)
    let notifier = SystemdNotifier.fromEnvironment()
    var deliveries: [FrameDelivery] = []
    // In the foreground the terminal view owns stdout.
    if options.writeStdout && terminal == nil { deliveries.append(DescriptorDelivery(key: key)) }
    let socket: SocketHandler?
    do {
      socket = try DaemonSocket.open(
        socketPath: options.socketPath, configuration: configuration, sampleRate: sampleRate,
        logger: logger)
    } catch {
      logger.error(error.description)
      return 1
    }
    if let socket { deliveries.append(socket) }
    if let terminal {
      deliveries.append(terminal)
      if let socket {
        terminal.socketFigures = {
          (socket.clientCount, socket.droppedFrames)
        }
      }
    }
    // Half a second: seven steady PulseAudio fragments, PipeWire's largest quantum (8192) twice.
    // Audio older than that when the engine reads is overwritten; the frame drawn after a
    // stall shows the newest audio anyway, and every page of the ring is resident as it
    // cycles, so a longer ring is unique memory for nothing.
    let buffer = CaptureBuffer(
      sampleRate: sampleRate, channels: configuration.channels.count, fps: configuration.fps,
      seconds: 0.5)
    let players = startPlayers(configuration: configuration, logger: logger)
    let engine = Engine(
      pipeline: pipeline, buffer: buffer, capture: source, deliveries: deliveries,
      signals: signals,
      reload: {
        notifier?.reloading()
        defer { notifier?.ready(status: "reloaded") }
        logger.debug("reload: reading \(options.configPath ?? ConfigLoading.defaultPath())")
        do {
          let plan = ReloadPlan(
            running: configuration,
            reloaded: try ConfigLoading.apply(
              options.overrides, to: ConfigLoading.load(path: options.configPath)))
          if let notice = plan.notice { logger.notice(notice) }
          let reloaded = plan.applied
          // The config's own bar count must lay out (the parser already refuses odd bars in
          // stereo; this catches more bars than the transform has bins at this rate).
          if let problem = LayoutCheck.problem(
            bars: reloaded.bars, configuration: reloaded, sampleRate: sampleRate)
          {
            logger.error("config not reloaded, keeping the old one: \(problem)")
            return nil
          }
          players?.preference.post(reloaded.players)
          logger.debug("reload: new config in effect")
          return reloaded
        } catch {
          logger.error("config not reloaded, keeping the old one: \(error)")
          return nil
        }
      }, players: players?.feed)
    // Code that runs once, at start-up (options, config, FFT plans) or when the state changes
    // (a stream set up, playback starting), leaves the resident set after it; what the frames
    // use faults back in (bench/README.md "Memory"). State changes are seconds apart at the
    // least.
    engine.onStatus = { status in
      notifier?.status(status)
      ResidentPages.releaseCleanFileMappings()
    }
    engine.onFrameRate = { rate in
      logger.debug("analysing \(rate) frames a second (the fastest consumer's rate)")
    }
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
    do {
      try socket?.start()
    } catch {
      logger.error("socket: \(error)")
      return 1
    }
    notifier?.ready(status: "capturing \(configuration.input)")
    let health = engine.health
    notifier?.startWatchdog { limit in health.isHealthy(limit: limit) }
    let released = ResidentPages.releaseCleanFileMappings()
    logger.debug("released \(released.kilobytes) kB of start-up pages")
    let status = engine.run()
    notifier?.stopping()
    socket?.stop()
    players?.stop()
    source.stop()
    return status
  }
}

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
    guard let (configuration, warned) = loadConfiguration(options) else { return 2 }
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
      return Daemon(
        source: PacedFileSource(file: file), sampleRate: file.sampleRate,
        configuration: configuration, options: options, warned: warned
      ).run()
    case .fifo(let path):
      do {
        try RawPCMSource.openFIFO(path).closeQuietly()
      } catch {
        Console.error("pulsebar: \(error)\n")
        return 1
      }
      return Daemon(
        source: RawPCMSource(origin: .fifo(path: path), inputChannels: configuration.rawChannels),
        sampleRate: configuration.rawSampleRate, configuration: configuration, options: options,
        warned: warned
      ).run()
    case .stdin:
      return Daemon(
        source: RawPCMSource(origin: .standardInput, inputChannels: configuration.rawChannels),
        sampleRate: configuration.rawSampleRate, configuration: configuration, options: options,
        warned: warned
      ).run()
    case .auto, .pulse, .pipewire:
      // A missing server is waited for.
      let (source, sampleRate) = serverSource(
        configuration: configuration, verbose: options.verbose)
      return Daemon(
        source: source, sampleRate: sampleRate, configuration: configuration, options: options,
        warned: warned
      ).run()
    }
  }

  /// The config file with the command line's overrides, and the warnings it logged (each once:
  /// a reload says only new ones); `nil` after one line on stderr.
  private static func loadConfiguration(_ options: RunOptions) -> (Configuration, Set<String>)? {
    var warned: Set<String> = []
    let logger = Logger(verbose: options.verbose)
    do {
      let configuration = try ConfigLoading.apply(
        options.overrides,
        to: ConfigLoading.load(path: options.configPath) { warning in
          if warned.insert(warning.description).inserted { logger.warning("\(warning)") }
        })
      return (configuration, warned)
    } catch {
      Console.error("pulsebar: \(error)\n")
      return nil
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
    let debug: CaptureLog? =
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
        sampleRate: rate, channels: configuration.channels.count, scope: configuration.scope,
        log: { logger.warning($0) }, debug: debug)
      return (source, rate)
    }
    let source = PulseSource(
      sourceName: sourceName, sampleRate: PulseSource.defaultSampleRate,
      channels: configuration.channels.count, fps: configuration.fps, scope: configuration.scope,
      log: { logger.warning($0) }, debug: debug)
    return (source, PulseSource.defaultSampleRate)
  }

  /// The key stdout writes, validated (a layout that cannot be made is a usage error).
  static func makePipeline(configuration: Configuration, sampleRate: Int) -> (
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
    return delivery.exitStatus(0) { Console.error("pulsebar: \($0)\n") }
  }
}

import CLinux
import Glibc
import PulseBarCore

/// `pulsebar run`: builds the configuration, the input, the pipeline and the
/// deliveries, then runs the engine (or, with `--offline`, reads the file as
/// fast as possible). Returns the exit status.
package enum RunCommand {
  package static func run(_ options: RunOptions) -> Int32 {
    let configuration: Configuration
    do {
      configuration = try ConfigLoading.apply(
        options.overrides, to: ConfigLoading.load(path: options.configPath))
    } catch let error as ConfigError {
      Console.error("pulsebar: \(error)\n")
      return 2
    } catch {
      Console.error("pulsebar: \(error)\n")
      return 2
    }
    if options.offline, case .file = configuration.input {
    } else if options.offline {
      Console.error("pulsebar: --offline needs --input file:PATH\n")
      return 2
    }
    signal(SIGPIPE, SIG_IGN)
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
        source: PacedFileSource(file: file, fps: configuration.fps), sampleRate: file.sampleRate,
        configuration: configuration, options: options)
    case .fifo(let path):
      do {
        close(try RawPCMSource.openFIFO(path))
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
    case .pulse:
      Console.error("pulsebar: PulseAudio input is not built yet; use --input file:PATH\n")
      return 1
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
      guard delivery.deliver(pipeline: pipeline, info: info) else { break }
    }
    return 0
  }

  private static func runLive(
    source: CaptureSource, sampleRate: Int, configuration: Configuration, options: RunOptions
  ) -> Int32 {
    guard let (pipeline, key) = makePipeline(configuration: configuration, sampleRate: sampleRate)
    else { return 2 }
    let signals = blockDaemonSignals()
    var deliveries: [FrameDelivery] = []
    if options.writeStdout { deliveries.append(DescriptorDelivery(key: key)) }
    let buffer = CaptureBuffer(sampleRate: sampleRate, channels: configuration.channels.count)
    let engine = Engine(
      pipeline: pipeline, buffer: buffer, deliveries: deliveries, signalDescriptor: signals,
      reload: {
        do {
          var reloaded = try ConfigLoading.load(path: options.configPath)
          reloaded = try ConfigLoading.apply(options.overrides, to: reloaded)
          reloaded.input = configuration.input
          return reloaded
        } catch {
          Console.error("pulsebar: config not reloaded, keeping the old one: \(error)\n")
          return nil
        }
      })
    source.start(into: buffer)
    let status = engine.run()
    source.stop()
    return status
  }

  /// Blocks the daemon's signals in every thread started later and returns a signalfd for them.
  private static func blockDaemonSignals() -> Int32 {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in [SIGTERM, SIGINT, SIGHUP, SIGUSR1] { sigaddset(&set, signal) }
    pthread_sigmask(SIG_BLOCK, &set, nil)
    return signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
  }
}

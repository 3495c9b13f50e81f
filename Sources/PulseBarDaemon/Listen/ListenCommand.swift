import Glibc
import PulseBarCore
import PulseBarSystem

/// `pulsebar listen`: reads a running daemon's socket and prints its frames, one per line,
/// each written (flushed) as it arrives.
///
/// A status-bar module must never die, so it never exits while its bar reads it: while the
/// daemon is unreachable this prints an offline frame (see
/// ``offlineFrame(format:bars:configuration:width:)``) as wide as the live lines were, and
/// reconnects with back-off from 100 ms up to 2 s. The offline frame is written again at each
/// attempt: polybar shows only the first line of what one read of the pipe returns, so a lone
/// line written once could stay unseen behind the last live frame. A broken config (in a key
/// listen reads: ``ListenConfig``) or a subscription the daemon refuses is one note and an
/// error frame (``errorFrame(message:format:bars:width:)``), tried again every 2 s. A line over
/// 64 KiB from the socket drops the connection. Under i3blocks a live line over 1,000 bytes
/// goes out made safe (``BoundedLine``). Notes go where ``ListenNotes`` says: never into
/// the bar's text. It exits 0 on SIGTERM or SIGINT and when its stdout goes away (EPIPE).
package enum ListenCommand {
  /// The config keys a client chooses (``ListenConfig/clientKeys``).
  package static let clientKeys = ListenConfig.clientKeys

  /// `pulsebar listen [--socket PATH] [--format F] [--bars N] [--fps N] [--config FILE]`.
  ///
  /// With `--config FILE` the file is the client's own: its `format`, `bars` and `fps` are
  /// asked for (the options win over them), and any daemon-side key in it gets one warning
  /// line naming them all. Without it, listen reads the user's config (the daemon's file) only
  /// for the socket path and `offline_text`, and asks for what the options say (the daemon's
  /// defaults for the rest), so a daemon's keys there warn nobody and cannot break it.
  package static func run(_ options: ListenOptions) -> Int32 {
    guard let signals = SignalReceiver.blockingDaemonSignals(command: "pulsebar listen") else {
      return 1
    }
    let notes = ListenNotes()
    var said: String?
    while true {
      let loaded = Result { () throws(ConfigError) in try load(options) }
      switch loaded {
      case .success(let (configuration, request, warning)):
        if let warning { notes.say(warning) }
        return run(
          socketPath: options.socketPath ?? "", request: request, configuration: configuration,
          signals: signals, notes: notes)
      case .failure(let error):
        if said != error.description { notes.say("pulsebar listen: \(error)\n") }
        said = error.description
        let format = options.format ?? Configuration().format
        let width = startingWidth(
          format: format, bars: options.bars,
          socketPath: UnixSocket.defaultPath(configured: options.socketPath ?? ""))
        let bars = options.bars ?? width.bars
        let frame = errorFrame(
          message: error.description, format: format, bars: bars, width: width)
        guard Console.output(frame) else { return 0 }
        if case .finished = wait(.seconds(2), signals: signals) { return 0 }
      }
    }
  }

  /// The width listen pads its own lines to before it sees a live one: the template's known
  /// width from the daemon's file (``ListenConfig/renderingConfiguration(_:file:)``), else the
  /// width the last listen of `socketPath` saw in this format (``ListenWidthMemory``).
  static func startingWidth(format: OutputFormat, bars: Int?, socketPath: String) -> LiveLineWidth {
    let file = ConfigLoading.defaultPath()
    let text = (try? ConfigLoading.readFile(file, required: false)) ?? nil
    let rendering =
      text.map { ListenConfig.renderingConfiguration($0, file: file) } ?? Configuration()
    return LiveLineWidth(
      format: format, bars: bars ?? (rendering ?? Configuration()).bars,
      configuration: rendering ?? Configuration(),
      remembered: ListenWidthMemory(socketPath: socketPath, format: format).recall(),
      readsDaemon: rendering != nil)
  }

  /// What listen asks for: the format, bars and fps of its options and (with `--config`) of
  /// its own file.
  struct Request {
    var format: OutputFormat?
    var bars: Int?
    var fps: Int?
  }

  /// The client's configuration, what it asks for, and a warning for its file's other keys.
  private static func load(_ options: ListenOptions) throws(ConfigError) -> (
    Configuration, Request, String?
  ) {
    var request = Request(format: options.format, bars: options.bars, fps: options.fps)
    let file = options.configPath ?? ConfigLoading.defaultPath()
    guard let text = try ConfigLoading.readFile(file, required: options.configPath != nil) else {
      return (Configuration(), request, nil)
    }
    let parsed = try ListenConfig.parse(text, file: file)
    guard options.configPath != nil else { return (parsed.configuration, request, nil) }
    let configuration = parsed.configuration
    if parsed.keys.contains("general.format") {
      request.format = request.format ?? configuration.format
    }
    if parsed.keys.contains("general.bars") { request.bars = request.bars ?? configuration.bars }
    if parsed.keys.contains("general.fps") { request.fps = request.fps ?? configuration.fps }
    let warning = ListenConfig.ignoredKeysWarning(file: file, keys: parsed.ignored)
    return (configuration, request, warning)
  }

  /// Runs until a signal or a closed stdout; returns the exit status.
  package static func run(
    socketPath: String, format: OutputFormat?, bars: Int?, fps: Int? = nil,
    configuration: Configuration
  ) -> Int32 {
    guard let signals = SignalReceiver.blockingDaemonSignals(command: "pulsebar listen") else {
      return 1
    }
    return run(
      socketPath: socketPath, request: Request(format: format, bars: bars, fps: fps),
      configuration: configuration, signals: signals, notes: ListenNotes())
  }

  private static func run(
    socketPath: String, request: Request, configuration: Configuration, signals: SignalReceiver,
    notes: ListenNotes
  ) -> Int32 {
    let configured = socketPath.isEmpty ? configuration.socketPath : socketPath
    let path = UnixSocket.defaultPath(configured: configured)
    if let note = UnixSocket.guessedPathNote(configured: configured) {
      notes.say("pulsebar listen: \(note)\n")
    }
    let line = Subscription.requestLine(
      format: request.format, bars: request.bars, fps: request.fps)
    let shownFormat = request.format ?? configuration.format
    let shownBars = request.bars ?? configuration.bars
    var width = startingWidth(format: shownFormat, bars: shownBars, socketPath: path)
    let memory = ListenWidthMemory(socketPath: path, format: shownFormat)
    // Said once per outage, on stderr (the bar's log): which path, and how to get a daemon.
    var outage = OutagePolicy()
    var refusal: String?
    while true {
      var reason: String?
      var refused: String?
      switch Result(catching: { () throws(Errno) in try UnixSocket.connect(path: path) }) {
      case .failure(let error): reason = error.description
      case .success(let socket):
        let outcome = stream(
          socket, request: line, signals: signals, width: &width)
        socket.closeQuietly()
        memory.keep(width)
        switch outcome {
        case .finished: return 0
        case .refused(let message):
          if refusal != message { notes.say("pulsebar listen: \(path): \(message)\n") }
          refusal = message
          refused = message
        case .overlong:
          notes.say(
            "pulsebar listen: \(path): a line longer than \(ListenRelay.maximumLine) bytes; reconnecting\n"
          )
        case .disconnected(let sawFrames):
          if sawFrames { _ = outage.connected() }
          reason = "it went away"
        }
      }
      let retry = outage.lost()
      if retry.announce, let reason {
        notes.say(
          "pulsebar listen: no daemon at \(path) (\(reason)); \(DaemonHints.start); retrying meanwhile\n"
        )
      }
      let frame =
        refused.map {
          errorFrame(message: $0, format: shownFormat, bars: shownBars, width: width)
        }
        ?? offlineFrame(
          format: shownFormat, bars: shownBars, configuration: configuration, width: width)
      guard Console.output(frame) else { return 0 }
      if case .finished = wait(.seconds(retry.after), signals: signals) { return 0 }
    }
  }

  // MARK: - Streaming

  /// How one connection ended.
  private enum StreamOutcome {
    /// A signal or a closed stdout: exit 0.
    case finished
    /// The daemon answered `error: …` (a full house too: it runs, and refuses).
    case refused(String)
    /// A line longer than ``ListenRelay/maximumLine``: the connection is dropped.
    case overlong
    /// The daemon went away; `sawFrames` when it had sent any.
    case disconnected(sawFrames: Bool)
  }

  private static func stream(
    _ socket: FileDescriptor, request: String, signals: SignalReceiver,
    width: inout LiveLineWidth
  ) -> StreamOutcome {
    let i3blocks = width.format == .text && environment("BLOCK_NAME") != nil
    let reader = width.format == .text ? ListenReader.detect() : .unknown
    // A failed write is no verdict: a daemon that refuses (too many clients) may have answered
    // and closed before the request went out, and its answer is still there to read.
    _ = try? socket.writeAll(request)
    // Under i3blocks (it sets BLOCK_NAME), which ignores an empty line, cuts one over 1,024
    // bytes and reads one line per write: a hidden line is a lone NUL (an empty text, which
    // hides the block), an over-long line is made safe (BoundedLine), and only the newest line
    // of a read goes out.
    var relay = ListenRelay(
      keepingShownLinesOf: width.cells == nil ? nil : width.format,
      emptyLine: i3blocks ? [0, 10] : nil,
      maximumLineBytes: i3blocks ? BoundedLine.i3blocksBytes : nil, newestLineOnly: i3blocks)
    // The newest line that showed something sets the width the offline line is padded to.
    defer { if !relay.shownLine.isEmpty { width.learn(from: relay.shownLine) } }
    var poll = PollSet()
    poll.add(socket)
    poll.add(signals.descriptor)
    // No events asked: POLLERR arrives when the reader of a stdout pipe goes away.
    poll.add(.standardOutput, [])
    while true {
      guard poll.wait(timeoutMilliseconds: -1) > 0 else { continue }
      if !poll.ready(1).isEmpty, case .terminate = signals.poll() { return .finished }
      if poll.ready(2).contains(.error) { return .finished }
      guard !poll.ready(0).isEmpty else { continue }
      let count = relay.receive { (try? socket.read(into: $0)) ?? 0 }
      guard count > 0 else { return .disconnected(sawFrames: relay.sawFrames) }
      switch relay.take() {
      case .partial: continue
      case .overlong: return .overlong
      case .error(let message):
        // It runs, and refuses: the error line (`!`), not "not running".
        if message == "error: too many clients" {
          return .refused("too many clients (its socket.max_clients)")
        }
        return .refused(message)
      case .lines:
        let written = relay.withLines { lines in
          guard let adapted = reader.adapted(lines) else {
            return (try? FileDescriptor.standardOutput.writeAll(lines)) != nil
          }
          return adapted.withUnsafeBytes {
            (try? FileDescriptor.standardOutput.writeAll($0)) != nil
          }
        }
        guard written else { return .finished }
      }
    }
  }

  /// How a back-off wait ended.
  private enum WaitOutcome {
    case finished
    case timedOut
  }

  /// Waits `delay` for a stop signal or a closed stdout.
  private static func wait(_ delay: Duration, signals: SignalReceiver) -> WaitOutcome {
    let deadline = ContinuousClock.now + delay
    var poll = PollSet()
    poll.add(signals.descriptor)
    poll.add(.standardOutput, [])
    while ContinuousClock.now < deadline {
      let remaining = Int32(clamping: (deadline - ContinuousClock.now).milliseconds)
      poll.wait(timeoutMilliseconds: max(0, remaining))
      if !poll.ready(0).isEmpty, case .terminate = signals.poll() { return .finished }
      if poll.ready(1).contains(.error) { return .finished }
    }
    return .timedOut
  }
}

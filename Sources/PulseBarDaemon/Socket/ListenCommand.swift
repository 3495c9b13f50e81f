import Glibc
import PulseBarCore
import PulseBarSystem

/// `pulsebar listen`: reads a running daemon's socket and prints its frames, one per line,
/// each written (flushed) as it arrives.
///
/// A status-bar module must never die, so while the daemon is unreachable this prints an
/// offline frame (see ``offlineFrame(format:bars:configuration:width:)``) as wide as the live
/// lines were, and reconnects with back-off from 100 ms up to 2 s. The offline frame is written
/// again at each attempt: polybar shows only the first line of what one read of the pipe
/// returns, so a lone line written once could stay unseen behind the last live frame.
/// Notes go where ``ListenNotes`` says: never into the bar's text. It exits 0 on SIGTERM or SIGINT and when its stdout
/// goes away (EPIPE); 2 when the daemon refuses the subscription it asked for.
package enum ListenCommand {
  /// The config keys a client chooses: what it asks the daemon for (format, bars, fps), what it
  /// shows while the daemon is away, and where the socket is. Every other key configures the
  /// daemon (`pulsebar run`): a listener cannot change how the daemon analyses or renders.
  package static let clientKeys = [
    "general.format", "general.bars", "general.fps", "output.offline_text", "socket.path",
  ]

  /// `pulsebar listen [--socket PATH] [--format F] [--bars N] [--fps N] [--config FILE]`.
  ///
  /// With `--config FILE` the file is the client's own: its `format`, `bars` and `fps` are
  /// asked for (the options win over them), and any daemon-side key in it gets one warning
  /// line naming them all. Without it, listen reads the user's config (the daemon's file) only
  /// for the socket path and `offline_text`, and asks for what the options say (the daemon's
  /// defaults for the rest), so a daemon's keys there warn nobody.
  package static func run(_ options: ListenOptions) -> Int32 {
    var configuration: Configuration
    var format = options.format
    var bars = options.bars
    var fps = options.fps
    do {
      if let path = options.configPath {
        let text = try ConfigLoading.readFile(path, required: true) ?? ""
        let parsed = try ConfigParser.parseListingKeys(text, file: path)
        configuration = parsed.configuration
        if let warning = daemonKeysWarning(file: path, keys: parsed.keys) {
          ListenNotes().say(warning)
        }
        if parsed.keys.contains("general.format") { format = format ?? configuration.format }
        if parsed.keys.contains("general.bars") { bars = bars ?? configuration.bars }
        if parsed.keys.contains("general.fps") { fps = fps ?? configuration.fps }
      } else {
        configuration = try ConfigLoading.load(path: nil)
      }
    } catch {
      ListenNotes().say("pulsebar: \(error)\n")
      return 2
    }
    return run(
      socketPath: options.socketPath ?? "", format: format, bars: bars, fps: fps,
      configuration: configuration)
  }

  /// The one warning line for daemon-side keys in a listener's config file, or `nil`.
  package static func daemonKeysWarning(file: String, keys: [String]) -> String? {
    let ignored = keys.filter { !clientKeys.contains($0) }
    guard !ignored.isEmpty else { return nil }
    return
      "pulsebar listen: \(file): ignoring daemon-side keys (they configure `pulsebar run`): \(ignored.joined(separator: ", "))\n"
  }

  /// Runs until a signal or a closed stdout; returns the exit status.
  package static func run(
    socketPath: String, format: OutputFormat?, bars: Int?, fps: Int? = nil,
    configuration: Configuration
  ) -> Int32 {
    guard let signals = SignalReceiver.blockingDaemonSignals(command: "pulsebar listen") else {
      return 1
    }
    let configured = socketPath.isEmpty ? configuration.socketPath : socketPath
    let path = UnixSocket.defaultPath(configured: configured)
    let notes = ListenNotes()
    if let note = UnixSocket.guessedPathNote(configured: configured) {
      notes.say("pulsebar listen: \(note)\n")
    }
    let request = Subscription.requestLine(format: format, bars: bars, fps: fps)
    let shownFormat = format ?? configuration.format
    let shownBars = bars ?? configuration.bars
    var width = LiveLineWidth(format: shownFormat, bars: shownBars, configuration: configuration)
    // Said once per outage, on stderr (the bar's log): which path, and how to get a daemon.
    var outage = OutagePolicy()
    while true {
      let connection = Result { () throws(Errno) in try UnixSocket.connect(path: path) }
      if case .success(let socket) = connection {
        let outcome = stream(socket, request: request, signals: signals, width: &width)
        socket.closeQuietly()
        switch outcome {
        case .finished: return 0
        case .refused(let message):
          notes.say("pulsebar listen: \(path): \(message)\n")
          return 2
        case .disconnected(let sawFrames):
          if sawFrames { _ = outage.connected() }
        }
      }
      let retry = outage.lost()
      if retry.announce {
        let reason: String
        if case .failure(let error) = connection {
          reason = error.description
        } else {
          reason = "it went away"
        }
        notes.say(
          "pulsebar listen: no daemon at \(path) (\(reason)); start it with `systemctl --user enable --now pulsebar.socket` or `pulsebar run --socket`; retrying meanwhile\n"
        )
      }
      let offline = offlineFrame(
        format: shownFormat, bars: shownBars, configuration: configuration, width: width)
      guard Console.output(offline) else { return 0 }
      switch wait(.seconds(retry.after), signals: signals) {
      case .finished: return 0
      case .timedOut: continue
      }
    }
  }

  /// The line printed while the daemon is unreachable. `offline_text` (default Ø) is its text in
  /// every format that has one, so the module stays visible; in the text and waybar formats it
  /// is padded with figure spaces to `width` (the live lines'), so the module keeps its width:
  ///
  /// - `waybar`: text `offline_text`, class and alt `offline` (the shipped CSS dims it); an
  ///   empty text would make waybar hide the module, and a bar with nothing else vanish;
  /// - `json`: `{"state":"offline","text":…}`;
  /// - `text`: `offline_text` (polybar, i3blocks: a block that went blank, or kept the last
  ///   playing frame, said nothing about the daemon being gone);
  /// - `raw`: every bar at 0 (`0;` per bar), what cava prints in silence, so a script that
  ///   splits on `;` keeps working.
  package static func offlineFrame(
    format: OutputFormat, bars: Int, configuration: Configuration,
    width: LiveLineWidth? = nil
  ) -> String {
    let shown = width?.padded(configuration.offlineText) ?? configuration.offlineText
    var text = ByteLine()
    text.appendJSONEscaped(shown.utf8)
    let json = String(decoding: text.bytes, as: UTF8.self)
    switch format {
    case .waybar:
      return
        #"{"text":""# + json
        + #"","alt":"offline","class":["offline"],"tooltip":"pulsebar is not running","percentage":0}"#
        + "\n"
    case .json:
      return #"{"state":"offline","text":""# + json + #""}"# + "\n"
    case .text:
      return shown + "\n"
    case .raw:
      return String(repeating: "0;", count: max(1, bars)) + "\n"
    }
  }

  // MARK: - Streaming

  /// How one connection ended.
  private enum StreamOutcome {
    /// A signal or a closed stdout: exit 0.
    case finished
    /// The daemon answered `error: …` (other than a full house).
    case refused(String)
    /// The daemon went away (or was full); `sawFrames` when it had sent any.
    case disconnected(sawFrames: Bool)
  }

  private static func stream(
    _ socket: FileDescriptor, request: String, signals: SignalReceiver,
    width: inout LiveLineWidth
  ) -> StreamOutcome {
    guard (try? socket.writeAll(request)) != nil else { return .disconnected(sawFrames: false) }
    var relay = ListenRelay(keepingShownLinesOf: width.cells == nil ? nil : width.format)
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
      case .error(let message):
        if message == "error: too many clients" { return .disconnected(sawFrames: false) }
        return .refused(message)
      case .lines:
        let written = relay.withLines {
          (try? FileDescriptor.standardOutput.writeAll($0)) != nil
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

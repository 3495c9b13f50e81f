import PulseBarCore
import PulseBarSystem

/// How `pulsebar run` gets its socket: the listener systemd passes (`LISTEN_FDS`), with or
/// without `--socket`; else a listener at `--socket`'s path (the configured or default one when
/// it has none); else no socket at all.
package enum DaemonSocket {
  /// A socket that could not be set up: one line, exit status 1.
  package struct OpenError: Error, CustomStringConvertible {
    package var description: String
  }

  /// The delivery for `run`'s engine (not accepting yet: ``SocketHandler/start()``), or `nil`
  /// when the daemon serves no socket.
  package static func open(
    socketPath: String?, configuration: Configuration, sampleRate: Int, logger: Logger
  ) throws(OpenError) -> SocketHandler? {
    let listener: FileDescriptor
    let ownsPath: String?
    do {
      if let activated = try SocketActivation.takeListener() {
        listener = activated
        ownsPath = nil
        logger.info("socket: listening on the socket systemd passed")
      } else if let socketPath {
        let configured = socketPath.isEmpty ? configuration.socketPath : socketPath
        let path = UnixSocket.defaultPath(configured: configured)
        if let note = UnixSocket.guessedPathNote(configured: configured) { logger.notice(note) }
        if let warning = UnixSocket.directoryWarning(socketPath: path) { logger.warning(warning) }
        listener = try UnixSocket.listen(path: path)
        ownsPath = path
        logger.info("socket: listening on \(path)")
      } else {
        return nil
      }
    } catch let error as SocketActivation.ActivationError {
      throw OpenError(description: error.description)
    } catch let error as UnixSocket.ListenError where error.errno == .addressInUse {
      throw OpenError(description: "socket: \(error); \(DaemonHints.socketInUse)")
    } catch {
      throw OpenError(description: "socket: \(error)")
    }
    do {
      return try SocketHandler(
        listener: listener, ownsPath: ownsPath, configuration: configuration,
        rules: rules(configuration: configuration, sampleRate: sampleRate),
        sampleRate: sampleRate, logger: logger)
    } catch {
      listener.closeQuietly()
      throw OpenError(description: "socket: epoll: \(error)")
    }
  }

  /// The socket's rules under `configuration`: its format and bar count as the default, its
  /// rate as the most, its channels and cut-offs for the layout check. At start and on reload.
  package static func rules(configuration: Configuration, sampleRate: Int) -> SubscriptionRules {
    SubscriptionRules(
      defaultSubscription: Subscription(format: configuration.format, bars: configuration.bars),
      maxFPS: configuration.fps,
      validate: layoutCheck(configuration: configuration, sampleRate: sampleRate))
  }

  /// Refuses bar counts the analysis cannot lay out (odd in stereo, more bars than bins).
  private static func layoutCheck(
    configuration: Configuration, sampleRate: Int
  ) -> @Sendable (Subscription) -> String? {
    let configuration = configuration
    return { subscription in
      LayoutCheck.problem(
        bars: subscription.bars, configuration: configuration, sampleRate: sampleRate)
    }
  }
}

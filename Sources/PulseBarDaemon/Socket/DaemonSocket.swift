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

  /// The delivery for `run`'s engine (its server not started yet), or `nil` when the daemon
  /// serves no socket.
  package static func open(
    socketPath: String?, configuration: Configuration, sampleRate: Int, logger: Logger
  ) throws(OpenError) -> SocketDelivery? {
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
        listener = try UnixSocket.listen(path: path)
        ownsPath = path
        logger.info("socket: listening on \(path)")
      } else {
        return nil
      }
    } catch let error as SocketActivation.ActivationError {
      throw OpenError(description: error.description)
    } catch {
      throw OpenError(description: "socket: \(error)")
    }
    let rules = rules(configuration: configuration, sampleRate: sampleRate)
    do {
      return try SocketDelivery.make(sampleRate: sampleRate) { changed in
        SocketServer(
          listener: listener, ownsPath: ownsPath, configuration: configuration,
          defaultSubscription: rules.defaultSubscription, logger: logger,
          validate: rules.validate, onSubscriptionsChanged: changed)
      }
    } catch {
      listener.closeQuietly()
      throw OpenError(description: "socket: eventfd: \(error)")
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

/// Whether the analysis can lay out a bar count under a configuration: the one check behind
/// socket subscriptions and a reloaded config's own bar count.
package enum LayoutCheck {
  /// Why `bars` cannot be drawn under `configuration` at `sampleRate` (odd in stereo, more bars
  /// than the transform has bins), or `nil`.
  package static func problem(bars: Int, configuration: Configuration, sampleRate: Int) -> String? {
    let channels = configuration.channels.count
    guard bars % channels == 0 else {
      return "bars must be even in stereo (got \(bars))"
    }
    do throws(LayoutError) {
      _ = try BandLayout(
        barsPerChannel: bars / channels, lowCutoff: configuration.lowCutoff,
        highCutoff: configuration.highCutoff, sizes: TransformSizes(sampleRate: sampleRate))
      return nil
    } catch {
      return error.message
    }
  }
}

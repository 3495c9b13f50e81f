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
    let defaultSubscription = Subscription(
      format: configuration.format, bars: configuration.bars)
    let validate = layoutCheck(configuration: configuration, sampleRate: sampleRate)
    do {
      return try SocketDelivery.make { changed in
        SocketServer(
          listener: listener, ownsPath: ownsPath, configuration: configuration,
          defaultSubscription: defaultSubscription, logger: logger, validate: validate,
          onSubscriptionsChanged: changed)
      }
    } catch {
      listener.closeQuietly()
      throw OpenError(description: "socket: eventfd: \(error)")
    }
  }

  /// Refuses bar counts the analysis cannot lay out (odd in stereo, more bars than bins).
  private static func layoutCheck(
    configuration: Configuration, sampleRate: Int
  ) -> @Sendable (Subscription) -> String? {
    let channels = configuration.channels.count
    let low = configuration.lowCutoff
    let high = configuration.highCutoff
    return { subscription in
      guard subscription.bars % channels == 0 else {
        return "bars must be even in stereo (got \(subscription.bars))"
      }
      do throws(LayoutError) {
        _ = try BandLayout(
          barsPerChannel: subscription.bars / channels, lowCutoff: low, highCutoff: high,
          sizes: TransformSizes(sampleRate: sampleRate))
        return nil
      } catch {
        return error.message
      }
    }
  }
}

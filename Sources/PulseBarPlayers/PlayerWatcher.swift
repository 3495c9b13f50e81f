internal import CSystemd
import PulseBarCore
import PulseBarSystem

/// Follows every MPRIS player on the session bus, on a thread of its own, and hands the
/// engine the active player's state and track through a ``PlayerFeed``.
///
/// Event-driven only: the thread sleeps in `poll` on the bus connection (and a stop signal)
/// with no timeout unless a call awaits its reply, so it never wakes while nothing changes.
/// It asks the bus for the players once (`ListNames`, then each one's properties), then
/// follows `NameOwnerChanged` (players appearing and leaving) and `PropertiesChanged`
/// (`PlaybackStatus`, `Metadata`).
package final class PlayerWatcher: Sendable {
  /// Where the active player's snapshots arrive.
  package let feed: PlayerFeed
  /// Every shown player's name and status (`pulsebar status`).
  package let roster: PlayerRoster
  /// Where a reload posts the thread's settings (preference, lyrics directory, art colours).
  package let settings: PlayerSettings
  private let stopSignal: StopSignal
  private let thread: PosixThread

  /// Connects to the session bus and starts following players; throws when there is no bus
  /// (the caller logs one line and carries on without players). `log` gets one line if the
  /// bus goes away later.
  /// `debug` gets the `-v` lines (a player that does not answer, once per player).
  package static func start(
    settings: PlayerSettings,
    log: @escaping @Sendable (String) -> Void,
    debug: @escaping @Sendable (String) -> Void = { _ in }
  ) throws(BusError) -> PlayerWatcher {
    let connection = try BusConnection()
    let feed = PlayerFeed(nil)
    let roster = PlayerRoster()
    let stopSignal = StopSignal()
    let session = try PlayerSession(
      connection: connection, published: PlayerPublication(feed: feed, roster: roster),
      preference: settings.preference, initial: settings.initial.preference, debug: debug)
    session.finders = TrackFinders(
      lyrics: LyricFinder(
        directory: settings.initial.lyricsDirectory, reloads: settings.lyricsDirectory),
      art: ArtFinder(settings: settings.initial.art, reloads: settings.art))
    let thread = PosixThread.spawn {
      PosixThread.nameCurrent("pulsebar-mpris")
      // Made (and subscribed) on the caller's thread, used on this one from now on.
      session.connection.moveToCurrentThread()
      session.run(stop: stopSignal, log: log)
    }
    return PlayerWatcher(
      feed: feed, roster: roster, settings: settings, stopSignal: stopSignal, thread: thread)
  }

  private init(
    feed: PlayerFeed, roster: PlayerRoster, settings: PlayerSettings, stopSignal: StopSignal,
    thread: PosixThread
  ) {
    self.feed = feed
    self.roster = roster
    self.settings = settings
    self.stopSignal = stopSignal
    self.thread = thread
  }

  /// Stops the thread and closes the connection.
  package func stop() {
    stopSignal.request()
    thread.join()
  }
}

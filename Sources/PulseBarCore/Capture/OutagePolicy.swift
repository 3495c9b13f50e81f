/// When a connection to a server that comes and goes tries again, and what it says about it:
/// one line when an outage begins, one when it ends, nothing between (docs/DESIGN.md,
/// "Daemon": every "not there" is said once), and attempts spaced by ``Backoff``.
///
/// The PulseAudio and PipeWire sources and `pulsebar listen` each hold one and only translate:
/// a failure in, a line (or not) and a delay out.
package struct OutagePolicy: Sendable, Equatable {
  /// What to do after a failure.
  package struct Retry: Sendable, Equatable {
    /// Say that the server is gone: the first failure of an outage.
    package var announce: Bool
    /// Seconds until the next attempt.
    package var after: Double
  }

  package private(set) var backoff = Backoff()
  /// An outage was said and has not ended.
  package private(set) var isOut = false

  package init() {}

  /// The connection failed or was lost: whether to say so, and when to try again.
  package mutating func lost() -> Retry {
    defer { isOut = true }
    return Retry(announce: !isOut, after: backoff.next())
  }

  /// A connection worked: the back-off starts over. True when an outage was said, so its end
  /// is said too.
  package mutating func connected() -> Bool {
    backoff.reset()
    defer { isOut = false }
    return isOut
  }

  /// Something short of the connection failed (a record stream): the seconds until it is made
  /// again. Nothing is said, and no outage begins.
  package mutating func failedWhileConnected() -> Double { backoff.next() }
}

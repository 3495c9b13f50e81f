/// What a PulseAudio record stream records: the monitor of the default sink, followed as the
/// default changes and as the server moves the stream, or a named source; and which sink's
/// streams drive the activity (the monitored sink's).
///
/// The libpulse callbacks only translate: a lookup's answer (the default sink's monitor, or the
/// named source), a move of the stream by the server, a source's info come in with the time
/// they came (monotonic seconds); what to record and when to look again go out. A value type
/// driven with explicit times, so the rules are tested with exact numbers.
///
/// The rules for a move the server made on its own while the default is followed:
/// - the moved-to monitor's sink drives the activity at once (a player there uncorks the
///   stream), once a source info names it;
/// - the default is looked up ``settleAfterMove`` later, not at once: pipewire-pulse can move
///   the stream (WirePlumber following a `wpctl set-default`) before its server info names the
///   new default, and a look at once would record the old sink's monitor by name, for good;
/// - a lookup that names the source the stream was moved away from is trusted only when a
///   second one, ``confirmOverruledMove`` later, says the same: pipewire-pulse can still name
///   the old default half a second after WirePlumber moved the stream, and send no event
///   after it. Then the stream goes back (a stream moved by hand returns to the default's
///   monitor 2.5 s after the move). A lookup that agrees with the move, or names a third
///   source, ends the wait.
package struct DefaultSinkFollower: Sendable, Equatable {
  /// How long after the server moved the stream the default sink is looked up, in seconds.
  package static let settleAfterMove = 0.5
  /// How long after a lookup that overruled a server move the default is looked up again
  /// before the stream goes back, in seconds.
  package static let confirmOverruledMove = 2.0

  /// A move of the record stream the server made: where to, from where, and when a lookup first
  /// named the old source as the default's monitor, if one did.
  struct ServerMove: Sendable, Equatable {
    var to: String
    var from: String?
    var overruledAt: Double?
  }

  /// What to do with a lookup's answer.
  package enum Decision: Sendable, Equatable {
    /// Leave the stream where the server moved it. With a time (the first lookup that named
    /// the old source), look up the default again then; without, the look is already due.
    case keepMove(lookAgainAt: Double?)
    /// The current stream already records the source; `sinkChanged` when it now monitors
    /// another sink than before (say what it records).
    case keep(sinkChanged: Bool)
    /// Make a record stream for this source (replacing the current one, if any).
    case record(String)
  }

  /// What a source's info changed.
  package enum SinkUpdate: Sendable, Equatable {
    /// Not the recorded source (an answer that came after the stream moved on).
    case ignored
    /// The recorded source's sink, as it was.
    case unchanged
    /// The recorded source monitors another sink now: it drives the activity.
    case changed
  }

  /// False for a named source: the server does not move it, and nothing is followed.
  package let followsDefault: Bool
  /// The source the current record stream records; `nil` while there is no stream.
  package private(set) var recorded: String?
  /// The sink whose monitor is recorded; `nil` for a source that is no monitor, or nothing.
  package private(set) var monitoredSink: UInt32?
  /// The last move the server made on its own while the default is followed, until a lookup
  /// agrees with it or overrules it.
  private(set) var pendingMove: ServerMove?
  /// A named source was said to be missing (one line until it appears).
  private var missingSaid = false

  package init(followsDefault: Bool) {
    self.followsDefault = followsDefault
  }

  /// A lookup at `now` found `source` (the default sink's monitor, or the named source) and
  /// the sink it monitors: record it, keep the current stream, or leave the server's move.
  package mutating func lookedUp(_ source: String, monitoring sink: UInt32?, at now: Double)
    -> Decision
  {
    missingSaid = false
    if let move = pendingMove {
      if source != move.to, source == move.from {
        guard let overruledAt = move.overruledAt else {
          pendingMove?.overruledAt = now
          return .keepMove(lookAgainAt: now + Self.confirmOverruledMove)
        }
        // A lookup another event asked for meanwhile; the timer's comes later.
        if now - overruledAt < Self.confirmOverruledMove * 0.9 {
          return .keepMove(lookAgainAt: nil)
        }
      }
      pendingMove = nil
    }
    let sinkChanged = sink != monitoredSink
    monitoredSink = sink
    if recorded == source { return .keep(sinkChanged: sinkChanged) }
    recorded = source
    return .record(source)
  }

  /// The server moved the stream at `now` to `source` (`nil`: it did not say where). Returns
  /// when to look up the default sink.
  package mutating func streamMoved(to source: String?, at now: Double) -> Double {
    if let source {
      if followsDefault { pendingMove = ServerMove(to: source, from: recorded) }
      recorded = source
    }
    return now + Self.settleAfterMove
  }

  /// A source info said that `source` monitors `sink` (`nil`: no sink's monitor).
  package mutating func learned(sink: UInt32?, of source: String) -> SinkUpdate {
    guard source == recorded else { return .ignored }
    defer { monitoredSink = sink }
    return sink == monitoredSink ? .unchanged : .changed
  }

  /// The record stream is gone (closed, failed, or about to be remade at a new format); the
  /// monitored sink stays until a lookup says otherwise.
  package mutating func streamClosed() {
    recorded = nil
    pendingMove = nil
  }

  /// Nothing to record: no default sink, or the connection is gone.
  package mutating func nothingToRecord() {
    streamClosed()
    monitoredSink = nil
  }

  /// The named source does not exist (yet): nothing is recorded. True the first time since it
  /// was last seen, to say so once.
  package mutating func namedSourceMissing() -> Bool {
    nothingToRecord()
    defer { missingSaid = true }
    return !missingSaid
  }
}

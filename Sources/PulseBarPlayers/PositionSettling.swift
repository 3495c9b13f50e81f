import PulseBarCore

/// How a player's position settles after a track change: read at the change, then every
/// ``interval`` until two reads in a row agree (the second within ``tolerance`` of where the
/// first said the player would be, at its rate and status), at most ``maximumReads`` times.
///
/// A player may start its new track late (mpv still opening the file on a busy machine) while
/// it already says `Playing`: its position stands still for a while, and a single read would
/// leave the bar ahead of it for the whole track. Two reads that agree say it moves as it
/// says; a read that fails counts as one that does not agree.
struct PositionSettling: Sendable {
  /// Seconds between reads.
  static let interval = 0.5
  /// How far apart two reads may be and still agree, seconds.
  static let tolerance = 0.05
  /// Reads after which it stops asking, agreed or not (a player that never settles).
  static let maximumReads = 8

  /// When the next read is due; `nil` while one is in flight.
  private(set) var due: Double?
  private var reads = 0
  /// The last read, as the registry keeps it (with the rate and status it moves by).
  private var last: PlaybackPosition?

  /// A track changed at `now`: the read asked then answers first, the next is due after it.
  init(changedAt now: Double) { due = now + Self.interval }

  /// The read due by now was asked.
  mutating func asked() { due = nil }

  /// A read answered `position` at `now`; true when the position has settled (no more reads).
  mutating func answered(_ position: PlaybackPosition, at now: Double) -> Bool {
    reads += 1
    defer { last = position }
    if let last, abs(last.seconds(at: now) - position.seconds(at: now)) <= Self.tolerance {
      return true
    }
    return next(after: now)
  }

  /// A read failed at `now`; true when no more are asked.
  mutating func failed(at now: Double) -> Bool {
    reads += 1
    return next(after: now)
  }

  private mutating func next(after now: Double) -> Bool {
    guard reads < Self.maximumReads else { return true }
    due = now + Self.interval
    return false
  }
}

/// Where the active player is in its track: MPRIS `Position` sampled at a monotonic time,
/// extrapolated with `Rate` while playing, frozen while paused or stopped.
///
/// MPRIS sends no signal as the position moves, only when it jumps (`Seeked`) or when asked
/// (`Position`): so the value is a sample plus the time it was taken, and a reader asks
/// ``seconds(at:)`` for the position now. Always within 0…length (when the length is known)
/// and within ``PlayerValueBounds``, whatever it is given: its numbers come from any program
/// on the bus, and every operation on them is total (no conversion or arithmetic can trap).
/// Times are seconds of one monotonic clock, injected (the engine's; tests' exact times).
package struct PlaybackPosition: Sendable, Equatable {
  /// The position at ``sampledAt``, microseconds.
  package private(set) var microseconds: Int64
  /// When ``microseconds`` was true, monotonic seconds.
  package private(set) var sampledAt: Double
  /// Playback rate (1 normal, 2 double speed), within ``PlayerValueBounds/rateRange``: a
  /// non-positive or non-finite rate counts as 1.
  package private(set) var rate: Double
  package private(set) var status: PlayerStatus
  /// The track's length in seconds, when known.
  package var length: Double?

  package init(
    microseconds: Int64, at time: Double, rate: Double = 1, status: PlayerStatus,
    length: Double? = nil
  ) {
    self.microseconds = PlayerValueBounds.position(microseconds: microseconds) ?? 0
    sampledAt = time
    self.rate = PlayerValueBounds.rate(rate)
    self.status = status
    self.length = length
  }

  /// The position at `time` in seconds: moving at ``rate`` while playing, clamped to the
  /// track and to ``PlayerValueBounds/maximumPositionSeconds``.
  package func seconds(at time: Double) -> Double {
    var seconds = Double(microseconds) / 1_000_000
    if status == .playing && time > sampledAt { seconds += (time - sampledAt) * rate }
    if let length, length > 0 { seconds = min(seconds, length) }
    return PlayerValueBounds.positionSeconds(seconds)
  }

  /// `Seeked(position)` or a fresh `Position` reply at `time`.
  package mutating func seeked(to microseconds: Int64, at time: Double) {
    self.microseconds = PlayerValueBounds.position(microseconds: microseconds) ?? 0
    sampledAt = time
  }

  /// `PlaybackStatus` changed at `time`: the position is re-anchored there, so a pause freezes
  /// it where it was and a resume moves on from there.
  package mutating func statusChanged(to status: PlayerStatus, at time: Double) {
    anchor(at: time)
    self.status = status
  }

  /// `Rate` changed at `time`.
  package mutating func rateChanged(to rate: Double, at time: Double) {
    anchor(at: time)
    self.rate = PlayerValueBounds.rate(rate)
  }

  private mutating func anchor(at time: Double) {
    // ``seconds(at:)`` is at most a year: its microseconds fit an Int64 a million times over.
    microseconds = Int64((seconds(at: time) * 1_000_000).rounded())
    sampledAt = max(sampledAt, time)
  }

  /// When the shown position (whole seconds) next changes after `time`, or `nil` when it does
  /// not (paused, stopped, at the end). At most once a second: a rate above 1 steps the shown
  /// value by whole multiples of the rate (2 s at rate 2), one wake-up per second.
  package func nextVisibleChange(after time: Double) -> Double? {
    guard status == .playing else { return nil }
    let now = seconds(at: time)
    if let length, length > 0, now >= length { return nil }
    if now >= PlayerValueBounds.maximumPositionSeconds { return nil }
    let step = rate > 1 ? rate.rounded(.up) : 1
    let next = ((now / step).rounded(.down) + 1) * step
    return time + (next - now) / rate
  }

  /// When `lyric`'s shown line next changes after `time`, or `nil` when it does not (paused,
  /// stopped, after its last line or the track's end).
  package func nextChange(of lyric: SyncedLyric, after time: Double) -> Double? {
    guard status == .playing else { return nil }
    let now = seconds(at: time)
    guard let next = lyric.nextChange(after: now) else { return nil }
    if let length, length > 0, next > length { return nil }
    return time + (next - now) / rate
  }

  /// Appends `seconds` (floored) as `m:ss`, or `h:mm:ss` from an hour.
  package static func appendClock(_ seconds: Double, into line: inout ByteLine) {
    let total = seconds.isFinite && seconds > 0 ? UInt64(min(seconds, 1e9)) : 0
    let hours = total / 3600
    let minutes = total / 60 % 60
    let secs = total % 60
    if hours > 0 {
      line.append(integer: hours)
      line.append(UInt8(ascii: ":"))
      if minutes < 10 { line.append(UInt8(ascii: "0")) }
    }
    line.append(integer: minutes)
    line.append(UInt8(ascii: ":"))
    if secs < 10 { line.append(UInt8(ascii: "0")) }
    line.append(integer: secs)
  }
}

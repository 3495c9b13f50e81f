/// The ranges a player's numbers are held to where they enter from the session bus.
///
/// Any program on the bus can claim an MPRIS name and send any `Position`, `Rate`, `Seeked` or
/// `mpris:length` (a browser passes a web page's through). In Swift an overflowing conversion
/// or operation traps, so every such number is clamped or refused here, before any arithmetic,
/// and what lies downstream (``PlaybackPosition``, the `{position}`, `{length}` and
/// `{progress}` fields, json) only ever sees values inside these ranges:
///
/// | value | range | outside it |
/// | --- | --- | --- |
/// | `Position`, `Seeked` | 0 … ``maximumPositionMicroseconds`` (a year) | negative: left out; larger: the maximum |
/// | `Rate` | ``rateRange`` (1/64 … 64) | not finite or ≤ 0: 1 (normal speed); else the nearest end |
/// | `mpris:length` | a positive whole number of µs up to ``maximumLengthSeconds`` (a week) | left out |
/// | `Volume` | 0 … ``maximumVolume`` (1 is 100 %) | not finite: left out; negative: 0 (as the spec says); larger: the maximum |
package enum PlayerValueBounds {
  /// The furthest position believed: a year, in microseconds. A live stream has no length and
  /// its position grows for as long as it plays; a year of it still fits every clock field
  /// (`h:mm:ss` with up to four digits of hours) and keeps µs exact in a `Double`.
  package static let maximumPositionMicroseconds: Int64 = 366 * 24 * 3600 * 1_000_000
  /// ``maximumPositionMicroseconds`` in seconds.
  package static let maximumPositionSeconds = Double(maximumPositionMicroseconds) / 1e6
  /// The longest track length believed, in seconds: a week.
  package static let maximumLengthSeconds: Double = 7 * 24 * 3600
  /// The playback rates believed. MPRIS players offer 0.25…4 at most in practice; the range is
  /// wide enough for any real one and keeps the position's wake-ups finite (``PlaybackPosition``
  /// divides by the rate).
  package static let rateRange: ClosedRange<Double> = (1.0 / 64)...64

  /// The loudest `Volume` believed: 10 (1000 %). The spec lets a player go past 1 (mpv
  /// amplifies to 1.3 by default, PulseAudio to 1.53); `{volume}` shows at most `1000%`.
  package static let maximumVolume: Double = 10

  /// A `Volume`: `nil` when not finite, 0 when negative (the spec says to read it so), else
  /// at most ``maximumVolume``.
  package static func volume(_ volume: Double) -> Double? {
    guard volume.isFinite else { return nil }
    return min(max(volume, 0), maximumVolume)
  }

  /// A `Position` or `Seeked` value: `nil` when negative (the spec has none, and a player that
  /// sends one is not believed), else at most ``maximumPositionMicroseconds``.
  package static func position(microseconds: Int64) -> Int64? {
    guard microseconds >= 0 else { return nil }
    return min(microseconds, maximumPositionMicroseconds)
  }

  /// A `Rate`: 1 for a value that is not finite or not positive (the spec forbids 0 and
  /// negative rates), else clamped to ``rateRange``.
  package static func rate(_ rate: Double) -> Double {
    guard rate.isFinite, rate > 0 else { return 1 }
    return min(max(rate, rateRange.lowerBound), rateRange.upperBound)
  }

  /// `mpris:length` in seconds, when it is what the spec says: a positive whole number of
  /// microseconds (a length that is negative, zero, a fraction, NaN or over a week is left
  /// out).
  package static func length(microseconds: Double) -> Double? {
    guard microseconds.isFinite, microseconds > 0, microseconds.rounded() == microseconds,
      microseconds <= maximumLengthSeconds * 1e6
    else { return nil }
    return microseconds / 1e6
  }

  /// A position in seconds, for the arithmetic in ``PlaybackPosition``: NaN and negative
  /// values are 0, larger ones ``maximumPositionSeconds``.
  package static func positionSeconds(_ seconds: Double) -> Double {
    seconds > 0 ? min(seconds, maximumPositionSeconds) : 0
  }
}

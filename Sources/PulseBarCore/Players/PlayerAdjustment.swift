/// What `pulsebar ctl volume`, `ctl seek` and `ctl position` ask of a player, read from the
/// command line: pure, and bounded before any arithmetic.
///
/// Numbers are plain decimals (`[+|-]digits[.digits]`, at most 9 digits before the point and
/// 6 after), never `nan`, `inf`, exponents or hex floats, so every value converts exactly and
/// no conversion to `Int64` microseconds can trap:
///
/// | operand | means | range |
/// | --- | --- | --- |
/// | `volume 0.4`, `volume 40%` | set `Volume` to that level | 0 … 1 (0 % … 100 %) |
/// | `volume +5%`, `volume -0.05` | step from the player's `Volume` | ±1 (±100 %) |
/// | `seek +10`, `seek -1:30` | `Seek` by seconds (or `m:ss`) | ± ``PlayerValueBounds/maximumPositionSeconds`` |
/// | `position 1:23`, `position 83.5` | `SetPosition` to seconds, `m:ss` or `h:mm:ss` | 0 … ``PlayerValueBounds/maximumPositionSeconds`` |
///
/// A level set from the bar never goes above 100 %: ``VolumeChange/level(from:)`` clamps a
/// step's result to 0 … 1, except that a player already louder than 100 % (mpv amplifies to
/// 130 %) stays there on a step up and goes down from there on a step down.
package enum PlayerAdjustment {
  /// A change of `Volume` (1 is 100 %).
  package enum VolumeChange: Sendable, Equatable {
    /// To this level, 0 … 1.
    case level(Double)
    /// By this much from the current level, -1 … 1.
    case step(Double)

    /// The level to set, given the player's current `Volume` (already bounded by
    /// ``PlayerValueBounds/volume(_:)``). Rounded to 1/10,000, so steps of 5 % land on 5 %
    /// marks.
    package func level(from current: Double) -> Double {
      switch self {
      case .level(let level): return level
      case .step(let step):
        let target = min(max(current + step, 0), max(current, 1))
        return (target * 10_000).rounded() / 10_000
      }
    }

    /// True when the current level is needed (a step).
    package var isStep: Bool {
      if case .step = self { true } else { false }
    }
  }

  /// A bad operand: one line saying what was expected.
  package struct Failure: Error, Equatable, CustomStringConvertible {
    package var description: String
    package init(description: String) { self.description = description }
  }

  /// `volume`'s operand: `0.4`, `40%` (a level) or `+5%`, `-0.05` (a step).
  package static func volume(_ text: String) throws(Failure) -> VolumeChange {
    let expected =
      "expected a level from 0 to 1 (0.4) or 0% to 100% (40%), or a step like +5% or -0.05"
    var body = Substring(text)
    let percent = body.hasSuffix("%")
    if percent { body = body.dropLast() }
    guard let (sign, magnitude) = decimal(body) else {
      throw Failure(description: "bad volume '\(text)': \(expected)")
    }
    let value = percent ? magnitude / 100 : magnitude
    guard value <= 1 else {
      throw Failure(description: "volume '\(text)' is out of range: \(expected)")
    }
    switch sign {
    case nil: return .level(value)
    case .some(let negative): return .step(negative ? -value : value)
    }
  }

  /// `seek`'s operand, `+10`, `-10`, `+1:30` (unsigned is forward), in microseconds.
  package static func seekOffset(_ text: String) throws(Failure) -> Int64 {
    var body = Substring(text)
    var negative = false
    if let first = body.first, first == "+" || first == "-" {
      negative = first == "-"
      body = body.dropFirst()
    }
    guard let microseconds = clockMicroseconds(body) else {
      throw Failure(
        description:
          "bad offset '\(text)': expected seconds to move, like +10, -10 or -1:30 (at most a year)"
      )
    }
    return negative ? -microseconds : microseconds
  }

  /// `position`'s operand, `83`, `1:23`, `1:02:03.5`, in microseconds.
  package static func position(_ text: String) throws(Failure) -> Int64 {
    guard let microseconds = clockMicroseconds(Substring(text)) else {
      throw Failure(
        description:
          "bad position '\(text)': expected seconds, m:ss or h:mm:ss from the track's start, like 1:23 (at most a year)"
      )
    }
    return microseconds
  }

  // MARK: - Numbers

  /// `[+|-]digits[.digits]`: the sign (`nil` when none, `true` for minus) and the magnitude;
  /// `nil` for anything else or more than 9 + 6 digits.
  static func decimal(_ text: Substring) -> (sign: Bool?, magnitude: Double)? {
    var body = text
    var sign: Bool?
    if let first = body.first, first == "+" || first == "-" {
      sign = first == "-"
      body = body.dropFirst()
    }
    guard let magnitude = unsigned(body, integerDigits: 9) else { return nil }
    return (sign, magnitude)
  }

  /// `digits[.digits]` with at most `integerDigits` before the point and 6 after.
  private static func unsigned(_ text: Substring, integerDigits: Int) -> Double? {
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let whole = parts[0]
    let fraction = parts.count > 1 ? parts[1] : ""
    guard !whole.isEmpty, whole.count <= integerDigits, fraction.count <= 6,
      parts.count == 1 || !fraction.isEmpty,
      (whole + fraction).allSatisfy({ $0.isASCII && $0.isNumber })
    else { return nil }
    return Double(String(text))
  }

  /// `s[.f]`, `m:ss[.f]` or `h:mm:ss[.f]` (minutes and seconds after a colon below 60) in
  /// microseconds, at most ``PlayerValueBounds/maximumPositionMicroseconds``.
  static func clockMicroseconds(_ text: Substring) -> Int64? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count) else { return nil }
    var seconds = 0.0
    for (index, part) in parts.enumerated() {
      let last = index == parts.count - 1
      // The seconds may have a fraction; the fields after the first are two digits below 60.
      guard !last ? !part.contains(".") : true,
        let value = unsigned(part, integerDigits: index == 0 ? 9 : 2),
        index == 0 || (part.prefix { $0 != "." }.count == 2 && value < 60)
      else { return nil }
      seconds = seconds * 60 + value
    }
    guard seconds <= PlayerValueBounds.maximumPositionSeconds else { return nil }
    return Int64((seconds * 1_000_000).rounded())
  }
}
